// Starts, inspects and stops a fleet with scripts/fleet.sh, as an operator would, in a directory of its own.
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

export interface FleetState {
  dir: string;
  haproxyUrl: string;
  statsUrl: string;
  serverUrls: Record<ServerName, string>;
  databaseUrl: string;
  replicaUrl: string;
  pgPort: number;
  replicaPort: number;
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
    const ports = await distinctFreePorts(7);
    this.env = {
      ...baseEnv(),
      ...this.settings,
      FLEET_DIR: this.dir,
      FLEET_PORT: String(ports[0]),
      FLEET_SERVER_PORTS: `${ports[1]} ${ports[2]} ${ports[3]}`,
      FLEET_STATS_PORT: String(ports[4]),
      FLEET_PG_PORT: String(ports[5]),
      FLEET_REPLICA_PORT: String(ports[6]),
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
      const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
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
      pgPort: Number(values.PG_PORT),
      replicaPort: Number(values.REPLICA_PORT),
      replicaDelay: values.REPLICA_DELAY,
    };
  }

  status(timeoutMs = 20_000) {
    return run('bash', ['scripts/fleet.sh', 'status'], this.env, timeoutMs);
  }

  stop(timeoutMs = 60_000) {
    return run('bash', ['scripts/fleet.sh', 'stop'], this.env, timeoutMs);
  }

  /** scripts/pg-cluster.sh on this fleet's cluster (replica-stop, replica-start, status). */
  cluster(verb: string, timeoutMs = 60_000) {
    const s = this.state!;
    return run(
      'bash',
      ['scripts/pg-cluster.sh', verb],
      {
        ...process.env,
        PGDIR: path.join(this.dir, 'pg'),
        PGPORT: String(s.pgPort),
        REPLICA_PORT: String(s.replicaPort),
        REPLICA_DELAY: s.replicaDelay,
      },
      timeoutMs,
    );
  }

  pidOf(name: ServerName): number {
    return Number(fs.readFileSync(path.join(this.dir, `${name}.pid`), 'utf8').trim());
  }

  /** Every process the fleet started, by its pid files: servers, HAProxy, PgBouncer, PostgreSQL's two servers. */
  processes(): Record<string, number> {
    const files: Record<string, string> = {
      ...Object.fromEntries(SERVER_NAMES.map((name) => [name, `${name}.pid`])),
      haproxy: 'haproxy.pid',
      pgbouncer: 'pgbouncer/pgbouncer.pid',
      primary: 'pg/primary/postmaster.pid',
      replica: 'pg/replica/postmaster.pid',
    };
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

  /** HAProxy's view of each server (UP, DOWN, ...), from its statistics page. */
  async balancerView(): Promise<Record<string, string>> {
    const res = await fetch(`${this.state!.statsUrl};csv`, { signal: AbortSignal.timeout(3_000) });
    const view: Record<string, string> = {};
    for (const line of (await res.text()).split('\n')) {
      const fields = line.split(',');
      if (fields[0] === 'tierdesk' && fields[1] !== 'BACKEND' && fields[1] !== 'FRONTEND')
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

  primary() {
    const client = new pg.Client({
      connectionString: this.state!.databaseUrl,
      application_name: 'fleet-test',
    });
    client.on('error', () => {});
    return client;
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
