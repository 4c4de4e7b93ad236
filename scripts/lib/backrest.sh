# pgBackRest for the fleet (Debian's pgbackrest 2.45): one repository under FLEET_DIR, one stanza. Sourced by
# scripts/fleet.sh; the PostgreSQL nodes' archive_command comes from here, so every node archives the same way.
BACKREST_STANZA=tierdesk
backrest_config() { echo "$FLEET_DIR/pgbackrest.conf"; }
# What each node's archive_command runs: WAL goes to the repository as soon as a segment is complete.
backrest_archive_command() { echo "pgbackrest --config=$(backrest_config) --stanza=$BACKREST_STANZA archive-push %p"; }
