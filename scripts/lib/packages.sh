# Sourced by the scripts that run Debian's programs (pg-throwaway.sh, pg-cluster.sh, fleet.sh) and by .ci/run.
# A script checks for every program it needs before it starts anything; it installs nothing itself. When any is
# missing it prints the one line that installs them all and stops; .ci/run installs them with missing_packages.
#
# Each need is PROGRAM=PACKAGE: an absolute path must be an executable there, a bare name a command on PATH.
#   require_packages /usr/sbin/haproxy=haproxy ss=iproute2

# The Debian packages of the needs whose program is missing, each once, on one line (nothing when all are there).
missing_packages() {
  local need program package missing=()
  for need in "$@"; do
    program=${need%%=*}
    package=${need#*=}
    if [[ $program == /* ]]; then [ -x "$program" ] && continue; else command -v "$program" >/dev/null && continue; fi
    [[ " ${missing[*]} " == *" $package "* ]] || missing+=("$package")
  done
  echo "${missing[*]}"
}

# Returns when every program is there; else prints the apt-get line (sudo unless root) on stderr and exits 1.
require_packages() {
  local missing
  missing=$(missing_packages "$@")
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" = 0 ]; then echo "apt-get install -y $missing" >&2; else echo "sudo apt-get install -y $missing" >&2; fi
  exit 1
}

# PostgreSQL 15's server programs (postgresql-15) and its client, psql (postgresql-client-15, which it brings).
POSTGRES_15_NEEDS=(
  /usr/lib/postgresql/15/bin/pg_ctl=postgresql-15
  /usr/lib/postgresql/15/bin/initdb=postgresql-15
  /usr/lib/postgresql/15/bin/pg_basebackup=postgresql-15
  /usr/lib/postgresql/15/bin/psql=postgresql-15
)
