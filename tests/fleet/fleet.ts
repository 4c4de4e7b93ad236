// Starts, inspects and stops a fleet with scripts/fleet.sh, as an operator would, in a directory of its own; reads
// Patroni's view of the database nodes from its REST API (GET /cluster), as an operator's tools would.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../free-port';

export const SERVER_NAMES = ['s1', 's2', 's3'] as const;
export type ServerName = (typeof SERVER_NAMES)[number];

/** What a command printed and how it ended. */
export interface Ran {
  code: number | null;
  output: string;
}

/** Runs a command to its end (or `timeoutMs`), its output collected; never throws. */
export function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  onLine?: (line: string) => void,
): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let partial = '';
    const take = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      if (!onLine) return;
      partial += text;
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const timer = setTimeout(() => {
      output += `\n(killed: still running after ${Math.round(timeoutMs / 1000)} s)`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (onLine && partial) onLine(partial);
      resolve({ code, output });
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, output: `${output}\n${error.message}` });
    });
  });
}

/** A PostgreSQL node of the fleet, kept by its own Patroni (PG_NODES in fleet.env). */
export interface PgNode {
  name: string;
  port: number;
  dataDir: string;
  restPort: number;
}

/** A member as Patroni's GET /cluster lists it. */
export interface Member {
  name: string;
  role: 'leader' | 'sync_standby' | 'replica' | string;
  state: string;
  timeline?: number;
  /** Bytes behind the leader (replicas only); 'unknown' before the member reported a position. */
  lag?: number | string;
}

export interface FleetState {
  dir: string;
  haproxyUrl: string;
  statsUrl: string;
  serverUrls: Record<ServerName, string>;
  /** HAProxy's write port (the leader). */
  databaseUrl: string;
  /** HAProxy's read port (the replicas, the leader while none is up). */
  replicaUrl: string;
  nodes: PgNode[];
  replicaDelay: string;
}

/** The caller's environment for the fleet, less what the fleet sets itself. */
function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'DATABASE_REPLICA_URL',
    'PORT',
    'HOST',
    'DATA_DIR',
    'PUBLIC_URL',
    'TRUST_PROXY',
  ])
    delete env[name];
  return env;
}

export class Fleet {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-fleet-'));
  /** The secrets the test hands the fleet, so it can sign the partner's callbacks and run reconcile. */
  readonly dataKey = randomBytes(32).toString('hex');
  readonly webhookSecret = randomBytes(32).toString('hex');
  state?: FleetState;
  private env: NodeJS.ProcessEnv = {};

  constructor(private readonly settings: Record<string, string>) {}

  /** `npm run fleet -- start` in this fleet's directory, on free ports; its last line must be HAProxy's URL. */
  async start(flags: string[], timeoutMs: number, onLine?: (line: string) => void): Promise<Ran> {
    const ports = await distinctFreePorts(18);
    this.env = {
      ...baseEnv(),
      ...this.settings,
      FLEET_DIR: this.dir,
      FLEET_PORT: String(ports[0]),
      FLEET_SERVER_PORTS: `${ports[1]} ${ports[2]} ${ports[3]}`,
      FLEET_STATS_PORT: String(ports[4]),
      FLEET_PG_PORT: String(ports[5]),
      FLEET_REPLICA_PORT: String(ports[6]),
      FLEET_NODE_PORTS: `${ports[5]} ${ports[6]} ${ports[7]}`,
      FLEET_REST_PORTS: `${ports[8]} ${ports[9]} ${ports[10]}`,
      FLEET_PG_WRITE_PORT: String(ports[11]),
      FLEET_PG_READ_PORT: String(ports[12]),
      FLEET_ETCD_PORT: String(ports[13]),
      FLEET_ETCD_PEER_PORT: String(ports[14]),
      FLEET_PGBOUNCER_PORT: String(ports[15]),
      DATA_KEY: this.dataKey,
      PROVIDER_WEBHOOK_SECRET: this.webhookSecret,
    };
    const ran = await run('bash', ['scripts/fleet.sh', 'start', ...flags], this.env, timeoutMs, onLine);
    if (ran.code !== 0) return ran;
    this.state = this.readState();
    const lastLine = ran.output.trimEnd().split('\n').pop();
    if (lastLine !== this.state.haproxyUrl)
      return {
        code: 1,
        output: `${ran.output}\nThe last line is not HAProxy's URL (${this.state.haproxyUrl})`,
      };
    return ran;
  }

  private readState(): FleetState {
    const text = fs.readFileSync(path.join(this.dir, 'fleet.env'), 'utf8');
    const values: Record<string, string> = {};
    for (const line of text.split('\n')) {
      const match = /^([A-Za-z_][A-Za-z0-9_]*)='?(.*?)'?$/.exec(line);
      if (match) values[match[1]] = match[2];
    }
    return {
      dir: this.dir,
      haproxyUrl: values.HAPROXY_URL,
      statsUrl: `http://127.0.0.1:${values.STATS_PORT}/`,
      serverUrls: Object.fromEntries(
        SERVER_NAMES.map((name) => [name, values[`SERVER_URL_${name}`]]),
      ) as Record<ServerName, string>,
      databaseUrl: values.DATABASE_URL,
      replicaUrl: values.DATABASE_REPLICA_URL,
      nodes: values.PG_NODES.split(' ').map((entry) => {
        const [name, port, dataDir, restPort] = entry.split(':');
        return { name, port: Number(port), dataDir, restPort: Number(restPort) };
      }),
      replicaDelay: values.REPLICA_DELAY,
    };
  }

  status(timeoutMs = 20_000) {
    return run('bash', ['scripts/fleet.sh', 'status'], this.env, timeoutMs);
  }

  stop(timeoutMs = 60_000) {
    return run('bash', ['scripts/fleet.sh', 'stop'], this.env, timeoutMs);
  }

  /** Another verb of scripts/fleet.sh on this fleet (switchover, node-stop <node>, node-start <node>). */
  verb(args: string[], timeoutMs = 90_000) {
    return run('bash', ['scripts/fleet.sh', ...args], this.env, timeoutMs);
  }

  node(name: string): PgNode {
    const node = this.state!.nodes.find((n) => n.name === name);
    if (!node) throw new Error(`no node ${name}`);
    return node;
  }

  /** Patroni's members (GET /cluster) from the first node whose REST API answers; none when none answers. */
  async members(): Promise<Member[]> {
    for (const node of this.state?.nodes ?? []) {
      try {
        const res = await fetch(`http://127.0.0.1:${node.restPort}/cluster`, {
          signal: AbortSignal.timeout(2_000),
        });
        if (res.ok) return ((await res.json()) as { members: Member[] }).members;
      } catch {
        // This node's Patroni is down: ask the next.
      }
    }
    return [];
  }

  /** The running leader's name, if there is one. */
  async leader(): Promise<string | undefined> {
    return (await this.members()).find((m) => m.role === 'leader' && m.state === 'running')?.name;
  }

  /** A node's PostgreSQL (its postmaster), from postmaster.pid; 0 when it has none. */
  postmasterPid(name: string): number {
    const file = path.join(this.node(name).dataDir, 'postmaster.pid');
    return fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8').split('\n')[0]) : 0;
  }

  /** A node's Patroni, from the pid file the fleet wrote. */
  patroniPid(name: string): number {
    return Number(fs.readFileSync(path.join(this.dir, 'pg', `${name}.pid`), 'utf8').trim());
  }

  pidOf(name: ServerName): number {
    return Number(fs.readFileSync(path.join(this.dir, `${name}.pid`), 'utf8').trim());
  }

  /** Every process the fleet started, by its pid files: servers, HAProxy, PgBouncer, etcd, each node's Patroni and PostgreSQL. */
  processes(): Record<string, number> {
    const files: Record<string, string> = {
      ...Object.fromEntries(SERVER_NAMES.map((name) => [name, `${name}.pid`])),
      haproxy: 'haproxy.pid',
      pgbouncer: 'pgbouncer/pgbouncer.pid',
      etcd: 'etcd.pid',
    };
    for (const node of this.state?.nodes ?? []) {
      files[`patroni ${node.name}`] = `pg/${node.name}.pid`;
      files[`postgres ${node.name}`] = path.relative(this.dir, path.join(node.dataDir, 'postmaster.pid'));
    }
    const found: Record<string, number> = {};
    for (const [name, file] of Object.entries(files)) {
      const full = path.join(this.dir, file);
      const pid = fs.existsSync(full) ? Number(fs.readFileSync(full, 'utf8').split('\n')[0]) : 0;
      if (pid > 0) found[name] = pid;
    }
    return found;
  }

  kill(name: ServerName) {
    process.kill(this.pidOf(name), 'SIGKILL');
  }

  /** HAProxy's view of each server of a backend (UP, DOWN, ...), from its statistics page. */
  async balancerView(backend = 'tierdesk'): Promise<Record<string, string>> {
    const res = await fetch(`${this.state!.statsUrl};csv`, { signal: AbortSignal.timeout(3_000) });
    const view: Record<string, string> = {};
    for (const line of (await res.text()).split('\n')) {
      const fields = line.split(',');
      if (fields[0] === backend && fields[1] !== 'BACKEND' && fields[1] !== 'FRONTEND')
        view[fields[1]] = fields[17];
    }
    return view;
  }

  /** The end of a log in the fleet's directory (for a failure's report). */
  tail(file: string, lines = 15): string {
    const full = path.join(this.dir, file);
    if (!fs.existsSync(full)) return `(${file}: none)`;
    return fs.readFileSync(full, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  }

  /** An environment for a command run against the fleet's primary (npm run reconcile). */
  commandEnv(): NodeJS.ProcessEnv {
    return {
      ...baseEnv(),
      ...this.settings,
      DATABASE_URL: this.state!.databaseUrl,
      DATA_DIR: path.join(this.dir, 'reconcile'),
      DATA_KEY: this.dataKey,
      PROVIDER_WEBHOOK_SECRET: this.webhookSecret,
    };
  }

  /** Connections to the leader through HAProxy's write port; a connection cut by a failover is replaced. */
  primary() {
    const pool = new pg.Pool({
      connectionString: this.state!.databaseUrl,
      application_name: 'fleet-test',
      max: 2,
    });
    pool.on('error', () => {});
    return pool;
  }

  removeDir() {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}
