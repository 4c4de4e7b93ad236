// The servers ride through a failover of the primary, on PostgreSQL 15 servers of this file's own
// (scripts/pg-cluster.sh: a primary and a streaming replica), reached through a TCP proxy that plays HAProxy's part
// in a fleet: it sends each new connection to the current primary, and closes it at once while that is down. A
// project of its own with the replica's test ('replica', vite.config.ts): it needs no DATABASE_URL and runs once.
// - While no primary answers, a call is answered 503 with Retry-After and the message, never 500; reads, keyed
//   sales and the partner's callbacks wait for it and run again; the same app answers once it is back.
// - One runner at a time across real server processes: the settlement job's holder killed mid-run is replaced within
//   30 s, a live one never; its connection terminated, or the primary failed over to the replica, a server takes the
//   job up again, and no server is restarted.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app';
import { type Config, readConfig } from '../../src/server/config';
import { checkDataKey } from '../../src/server/data-key-check';
import { type Database, openDatabase } from '../../src/server/db/open';
import { seedDemoNetwork } from '../../src/server/demo/network';
import { ensureBootstrapAdmin } from '../../src/server/modules/account/index';
import { loadServerKeys } from '../../src/server/security/personal-data';
import { buildServer, COMPILED_SERVER } from '../compiled-server';
import { freePort } from '../free-port';
import { ADMIN, call, DEMO_PASSWORD, INITIAL_PASSWORD, login, WEBHOOK_SECRET, XSRF } from './helpers';
import { deliver, idsByMobile, productIdOf } from './selling';

const run = promisify(execFile);
const SCRIPT = path.resolve(__dirname, '../../scripts/pg-cluster.sh');
const SWITCHING = 'The database is switching over; try again in a moment';
const RUNS_IT = 'This server runs the settlement job now';
const ANOTHER_RUNS_IT = 'the settlement job runs on another server';
const DATA_KEY = randomBytes(32).toString('hex');
/** Long enough for a loaded 2-core machine to start a server or a database; the waits end sooner. */
const WAIT = { timeout: 60_000, interval: 200 };

let clusterEnv: NodeJS.ProcessEnv | undefined;
const cluster = async (verb: string) =>
  (await run('bash', [SCRIPT, verb], { env: clusterEnv, encoding: 'utf8' })).stdout;
let primaryPort: number;
let replicaPort: number;

/** The "HAProxy" in front of the primary: `target` is the port of the server that is the primary now. */
const proxy = {
  target: 0,
  server: undefined as net.Server | undefined,
  sockets: new Set<net.Socket>(),
  url: '',
  /** Closes every connection it carries, as HAProxy's `on-marked-down shutdown-sessions` does. */
  shutdownSessions() {
    for (const socket of proxy.sockets) socket.destroy();
  },
};

let database: Database;
let app: FastifyInstance;
let dataDir: string;
/** Connections straight to the server on `port` (not through the proxy): the test's own view of it. */
const direct = (port: number) =>
  new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
async function onServer<T extends pg.QueryResultRow>(port: number, text: string, values: unknown[] = []) {
  const client = direct(port);
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

let employee: string;
let retailer: string;
let ids: Record<string, string>;
let savingId: string;

beforeAll(async () => {
  buildServer();
  primaryPort = await freePort();
  replicaPort = await freePort();
  while (replicaPort === primaryPort) replicaPort = await freePort();
  clusterEnv = {
    ...process.env,
    PGDIR: path.join(os.tmpdir(), `tierdesk-failover-${randomBytes(4).toString('hex')}`),
    PGPORT: String(primaryPort),
    REPLICA_PORT: String(replicaPort),
  };
  await cluster('start');
  proxy.target = primaryPort;
  proxy.server = net.createServer((client) => {
    proxy.sockets.add(client);
    const upstream = net.connect({ port: proxy.target, host: '127.0.0.1' });
    proxy.sockets.add(upstream);
    client.pipe(upstream).pipe(client);
    for (const [one, other] of [
      [client, upstream],
      [upstream, client],
    ]) {
      one.on('error', () => other.destroy());
      one.on('close', () => {
        proxy.sockets.delete(one);
        other.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => proxy.server!.listen(0, '127.0.0.1', resolve));
  proxy.url = `postgres://postgres@127.0.0.1:${(proxy.server.address() as net.AddressInfo).port}/postgres`;

  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-failover-app-'));
  const config: Config = {
    ...readConfig({}),
    dataDir,
    databaseUrl: proxy.url,
    adminUsername: ADMIN.userName,
    adminPassword: ADMIN.password,
    initialPassword: INITIAL_PASSWORD,
    webDir: undefined,
    // The job runs in the server processes below, not in this app.
    settlementIntervalMs: 0,
  };
  database = await openDatabase({ databaseUrl: proxy.url, dataDir: '' });
  const keys = loadServerKeys({ dataKeyEnv: DATA_KEY, providerWebhookSecretEnv: WEBHOOK_SECRET, dataDir });
  await checkDataKey(database.db, keys);
  await ensureBootstrapAdmin(database.db, config);
  await seedDemoNetwork(database.db, config, keys.cipher);
  app = await buildApp({ config, db: database.db, ...keys, logger: false });
  // The built-in sandbox partner answers over HTTP.
  await app.listen({ port: 0, host: '127.0.0.1' });
  const admin = (await login(app, ADMIN.userName, ADMIN.password)).token;
  employee = (await login(app, '9000000001', DEMO_PASSWORD)).token;
  retailer = (await login(app, '9300000001', DEMO_PASSWORD)).token;
  ids = await idsByMobile(app, admin);
  savingId = await productIdOf(app, admin);
}, 300_000);

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  await app?.close();
  await database?.close();
  for (const socket of proxy.sockets) socket.destroy();
  await new Promise((resolve) => (proxy.server ? proxy.server.close(resolve) : resolve(undefined)));
  if (clusterEnv) await cluster('stop');
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

/** An account opening for retailer 1's customer 1, as `payusprint/saving_account` answers it. */
async function opening() {
  const res = await call(app, 'POST', 'payusprint/saving_account', {
    token: retailer,
    body: { productId: savingId, customerId: ids['9400000001'] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const url: string = res.body.result.result.data;
  return {
    customerId: ids['9400000001'],
    productId: savingId,
    utmCode: url.slice(url.lastIndexOf('=') + 1),
    merchantCode: res.body.result.merchantCode as string,
  };
}

/** `bought_products/create` as the panel's Proceed sends it, with an Idempotency-Key. */
async function keyedSale(body: Record<string, unknown>, key: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/bought_products/create',
    headers: {
      'x-auth-token': `bearer ${retailer}`,
      cookie: `XSRF-TOKEN=${XSRF}`,
      'x-xsrf-token': XSRF,
      'idempotency-key': key,
    },
    payload: body,
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

/** A confirmed ₹500 sale by retailer 1: its ₹100 share waits in clearing, due at once (SETTLEMENT_DELAY_HOURS=0). */
async function confirmedSale() {
  const sale = await opening();
  const recorded = await call(app, 'POST', 'bought_products/create', { token: retailer, body: sale });
  expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
  const event = { event: 'account.opened', utmCode: sale.utmCode, merchantCode: sale.merchantCode };
  expect((await deliver(app, event)).status).toBe(200);
}

const wallet = async () => (await call(app, 'GET', 'wallet/fetch', { token: retailer })).body.result.wallet;
/** A wallet once everything in its clearing is settled. */
const settled = (w: { balance: number; clearingBalance: number }) => ({
  balance: w.balance + w.clearingBalance,
  clearingBalance: 0,
});

/**
 * Holds `lock` (a table lock, or a row's) in a transaction straight on the primary until `release()`, and tells when
 * a statement waits for a lock (of the server named `application`, or any): a call held half-way, when the test
 * chooses.
 */
async function holding(lock: string, values: unknown[] = []) {
  const client = direct(proxy.target);
  client.on('error', () => {});
  await client.connect();
  const [{ pid }] = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows;
  await client.query('begin');
  await client.query(lock, values);
  return {
    waited: async (application?: string) =>
      (
        await onServer<{ n: number }>(
          proxy.target,
          `select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and pid <> $1 and ($2::text is null or application_name = $2)`,
          [pid, application ?? null],
        )
      )[0].n > 0,
    release: async () => {
      await client.query('commit').catch(() => {});
      await client.end().catch(() => {});
    },
  };
}

/** Once a call waits at `held`'s lock, the primary stops under it; then the lock goes and the primary is back. */
async function stopPrimaryUnder(held: Awaited<ReturnType<typeof holding>>) {
  try {
    await vi.waitFor(async () => expect(await held.waited()).toBe(true), WAIT);
    await cluster('primary-stop');
  } finally {
    await held.release();
    await cluster('primary-start');
  }
}

describe('while no primary answers', () => {
  it('answers 503 with Retry-After and the message, never 500, and the same app answers again once it is back', async () => {
    await cluster('primary-stop');
    try {
      // A sign-in: nothing waits for it (it counts the attempt first).
      const signIn = await call(app, 'POST', 'account/login', {
        body: { userName: '9000000001', password: DEMO_PASSWORD },
      });
      expect(signIn.status).toBe(503);
      expect(signIn.headers['retry-after']).toBe('5');
      expect(signIn.body).toEqual({ message: SWITCHING });
      // A read waits for a primary, and is answered the same once the wait is over.
      const read = await call(app, 'GET', 'state/fetch', { token: employee });
      expect(read.status).toBe(503);
      expect(read.headers['retry-after']).toBe('5');
      expect(read.body).toEqual({ message: SWITCHING });
      // The load balancer's health check says so too.
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(503);
    } finally {
      await cluster('primary-start');
    }
    const states = await call(app, 'GET', 'state/fetch', { token: employee });
    expect(states.status).toBe(200);
    expect(states.body.result.state.length).toBeGreaterThan(0);
    expect((await login(app, '9000000001', DEMO_PASSWORD)).token).toMatch(/\S/);
  }, 90_000);

  it('lets a read sent during a short outage wait for the primary, and answers it', async () => {
    await cluster('primary-stop');
    const read = call(app, 'GET', 'state/fetch', { token: employee });
    await cluster('primary-start');
    const answer = await read;
    expect(answer.status).toBe(200);
    expect(answer.body.result.state.length).toBeGreaterThan(0);
  }, 90_000);

  it('runs a keyed sale again when the primary goes away under it, and records it once', async () => {
    const sale = await opening();
    // The sale is held at its write until the primary is stopped under it.
    const held = await holding('lock table bought_products in share row exclusive mode');
    const answer = keyedSale(sale, 'failover-sale-1');
    await stopPrimaryUnder(held);
    const first = await answer;
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.result.utmCode).toBe(sale.utmCode);
    const rows = await onServer(proxy.target, 'select id from bought_products where utm_code = $1', [
      sale.utmCode,
    ]);
    expect(rows).toHaveLength(1);
    // The same key again answers the same sale.
    const again = await keyedSale(sale, 'failover-sale-1');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  }, 90_000);

  it('runs the partner’s callback again when the primary goes away under it, and confirms the sale once', async () => {
    const sale = await opening();
    expect((await call(app, 'POST', 'bought_products/create', { token: retailer, body: sale })).status).toBe(
      200,
    );
    const event = {
      event: 'account.opened',
      utmCode: sale.utmCode,
      merchantCode: sale.merchantCode,
      eventId: `failover-${randomBytes(4).toString('hex')}`,
    };
    const before = await wallet();
    const held = await holding('lock table provider_events in share row exclusive mode');
    const answer = deliver(app, event);
    await stopPrimaryUnder(held);
    const first = await answer;
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.message).toBe('Event recorded');
    // Retailer 1's share is in clearing once.
    expect(await wallet()).toEqual({ ...before, clearingBalance: before.clearingBalance + 100 });
    const again = await deliver(app, event);
    expect(again.body.message).toBe('Event already processed');
    expect(await wallet()).toEqual({ ...before, clearingBalance: before.clearingBalance + 100 });
  }, 90_000);

  it('answers a write that reached a server just demoted 503, and lets a keyed sale wait for the primary', async () => {
    // A fresh session: its look-up writes nothing for a minute, so only the calls' own writes meet the replica.
    const fresh = (await login(app, '9000000001', DEMO_PASSWORD)).token;
    const sale = await opening();
    // The replica, standing in for the demoted server, holds all of that (a demoted primary has its own data).
    const [{ lsn }] = await onServer<{ lsn: string }>(
      primaryPort,
      'select pg_current_wal_lsn()::text as lsn',
    );
    await vi.waitFor(async () => {
      const [{ replayed }] = await onServer<{ replayed: boolean }>(
        replicaPort,
        'select pg_last_wal_replay_lsn() >= $1::pg_lsn as replayed',
        [lsn],
      );
      expect(replayed).toBe(true);
    }, WAIT);
    // HAProxy still sends new connections to the old primary, now a replica, and has closed the old ones.
    proxy.target = replicaPort;
    proxy.shutdownSessions();
    // The app's pool has seen its connections end: the calls below open theirs to the demoted server.
    await vi.waitFor(() => expect(database.pool.totalCount).toBe(0), WAIT);
    try {
      const refused = await call(app, 'POST', 'state/create', {
        token: fresh,
        body: { name: 'Demoted State' },
      });
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.body).toEqual({ message: SWITCHING });
      // Sessions ever opened on the replica: the sale, waiting, looks for a primary again and again, each time on a
      // connection of its own (a connection that reached a server in recovery is dropped).
      // (Counted on one connection of the test's, which counts once it ends.)
      const stats = direct(replicaPort);
      await stats.connect();
      const sessions = async () =>
        (
          await stats.query<{ n: number }>(
            'select sessions::int as n from pg_stat_database where datname = current_database()',
          )
        ).rows[0].n;
      let answer: ReturnType<typeof keyedSale>;
      try {
        const before = await sessions();
        answer = keyedSale(sale, 'failover-demoted-1');
        await vi.waitFor(async () => expect(await sessions()).toBeGreaterThanOrEqual(before + 3), WAIT);
      } finally {
        await stats.end();
      }
      // HAProxy's check finds the primary again and closes the sessions to the replica.
      proxy.target = primaryPort;
      proxy.shutdownSessions();
      const sold = await answer;
      expect(sold.status, JSON.stringify(sold.body)).toBe(200);
      expect(sold.body.result.utmCode).toBe(sale.utmCode);
    } finally {
      proxy.target = primaryPort;
    }
    expect(await onServer(primaryPort, `select 1 from states where name = 'Demoted State'`)).toEqual([]);
    const made = await call(app, 'POST', 'state/create', { token: fresh, body: { name: 'Demoted State' } });
    expect(made.status).toBe(200);
  }, 90_000);

  it('answers a call that may not run twice 503 when the primary goes away under it, and does not run it again', async () => {
    const held = await holding('lock table states in share row exclusive mode');
    const answer = call(app, 'POST', 'state/create', { token: employee, body: { name: 'Failover State' } });
    await stopPrimaryUnder(held);
    const refused = await answer;
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body).toEqual({ message: SWITCHING });
    expect(await onServer(proxy.target, `select 1 from states where name = 'Failover State'`)).toEqual([]);
    // Sent again by the person, it is made once.
    const made = await call(app, 'POST', 'state/create', {
      token: employee,
      body: { name: 'Failover State' },
    });
    expect(made.status).toBe(200);
    expect(await onServer(proxy.target, `select 1 from states where name = 'Failover State'`)).toHaveLength(
      1,
    );
  }, 90_000);
});

interface Server {
  name: string;
  /** Its log lines (pino's JSON): what an operator reads. */
  lines: { level: number; msg: string }[];
  count(msg: string): number;
  base: string;
  kill(): void;
  stop(): Promise<void>;
}

/** A Tierdesk server as `npm start` runs it, on the database behind the proxy; resolves once it listens. */
async function startServer(name: string): Promise<Server> {
  const port = await freePort();
  const serverDir = fs.mkdtempSync(path.join(os.tmpdir(), `tierdesk-failover-${name}-`));
  const child: ChildProcess = spawn(COMPILED_SERVER[0], COMPILED_SERVER.slice(1), {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: serverDir,
      DATABASE_URL: proxy.url,
      DATABASE_REPLICA_URL: '',
      DATA_KEY,
      PROVIDER_WEBHOOK_SECRET: WEBHOOK_SECRET,
      DEMO_DATA: '1',
      SETTLEMENT_DELAY_HOURS: '0',
      LOG_LEVEL: 'debug',
      PGAPPNAME: name,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines: Server['lines'] = [];
  let output = '';
  const server: Server = {
    name,
    lines,
    count: (msg) => lines.filter((l) => l.msg === msg).length,
    base: `http://127.0.0.1:${port}`,
    kill: () => child.kill('SIGKILL'),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(serverDir, { recursive: true, force: true });
    },
  };
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    let partial = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
      partial += chunk;
      const complete = partial.split('\n');
      partial = complete.pop() ?? '';
      for (const line of complete)
        if (line.startsWith('{')) {
          const { level, msg } = JSON.parse(line) as { level: number; msg: string };
          lines.push({ level, msg });
        }
      if (output.includes('Tierdesk is running')) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.once('exit', (code) => reject(new Error(`server ${name} exited (${code}):\n${output}`)));
  });
  return server;
}

/** The server (its PGAPPNAME) holding the settlement job's runner lock, and its connection's process id. */
const jobHolder = async () =>
  (
    await onServer<{ name: string; pid: number }>(
      proxy.target,
      `select a.application_name as name, a.pid from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where l.locktype = 'advisory' and l.granted and l.objsubid = 2 and l.classid = 1 and l.objid = 1`,
    )
  )[0];

describe('one runner of the settlement job across server processes', () => {
  let b: Server;

  it('replaces a holder killed mid-run within 30 seconds, and never a live one', async () => {
    await confirmedSale();
    const before = await wallet();
    expect(before.clearingBalance).toBeGreaterThan(0);
    // Server A's first run is held at retailer 1's wallet, locked here.
    const held = await holding('select 1 from wallets where user_id = $1 for update', [ids['9300000001']]);
    let a: Server | undefined;
    try {
      a = await startServer('tierdesk-a');
      await vi.waitFor(async () => expect(await held.waited('tierdesk-a')).toBe(true), WAIT);
      expect(a.count(RUNS_IT)).toBe(1);
      expect((await jobHolder())?.name).toBe('tierdesk-a');
      b = await startServer('tierdesk-b');
      // B asks for the job again and again while A lives, and never gets it.
      await vi.waitFor(() => expect(b.count(ANOTHER_RUNS_IT)).toBeGreaterThanOrEqual(3), WAIT);
      expect(b.count(RUNS_IT)).toBe(0);
      expect((await jobHolder())?.name).toBe('tierdesk-a');

      a.kill();
    } finally {
      await held.release();
    }
    const killed = Date.now();
    await vi.waitFor(async () => expect(await wallet()).toEqual(settled(before)), WAIT);
    expect(Date.now() - killed).toBeLessThan(30_000);
    expect(b.count(RUNS_IT)).toBe(1);
    expect((await jobHolder())?.name).toBe('tierdesk-b');
  }, 180_000);

  it('takes the job up again when its holder’s connection is terminated (a failover, as its holder sees it)', async () => {
    const holder = await jobHolder();
    expect(holder?.name).toBe('tierdesk-b');
    await onServer(proxy.target, 'select pg_terminate_backend($1)', [holder.pid]);
    const terminated = Date.now();
    await confirmedSale();
    const before = await wallet();
    expect(before.clearingBalance).toBeGreaterThan(0);
    await vi.waitFor(async () => expect(await wallet()).toEqual(settled(before)), WAIT);
    expect(Date.now() - terminated).toBeLessThan(30_000);
    const now = await jobHolder();
    expect(now?.name).toBe('tierdesk-b');
    expect(now?.pid).not.toBe(holder.pid);
    expect(b.count(RUNS_IT)).toBe(2);
    expect(b.lines.filter((l) => l.level === 40).map((l) => l.msg)).toContain(
      'This server lost the settlement job with its database connection; a server takes it up again once the database answers',
    );
  }, 120_000);

  it('rides a failover to the promoted replica: no restart, the same app answers, and the job runs there', async () => {
    await cluster('primary-stop');
    await cluster('promote');
    // HAProxy's checks find the new primary: new connections go there.
    proxy.target = replicaPort;
    const states = await call(app, 'GET', 'state/fetch', { token: employee });
    expect(states.status).toBe(200);
    const made = await call(app, 'POST', 'state/create', {
      token: employee,
      body: { name: 'Promoted State' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    // The server process B, never restarted, answers through the new primary and runs the job there.
    expect((await fetch(`${b.base}/healthz`)).status).toBe(200);
    const promoted = Date.now();
    await confirmedSale();
    const before = await wallet();
    expect(before.clearingBalance).toBeGreaterThan(0);
    await vi.waitFor(async () => expect(await wallet()).toEqual(settled(before)), WAIT);
    expect(Date.now() - promoted).toBeLessThan(30_000);
    expect((await jobHolder())?.name).toBe('tierdesk-b');
    const overB = await fetch(`${b.base}/api/v1/state/fetch`, {
      headers: { 'x-auth-token': `bearer ${employee}` },
    });
    expect(overB.status).toBe(200);
  }, 180_000);
});
