// The read replica (DATABASE_REPLICA_URL) on a real PostgreSQL 15 primary and streaming replica, which this file
// starts itself with scripts/pg-cluster.sh on ports of its own, the replica applying 2 s behind
// (recovery_min_apply_delay). It needs no DATABASE_URL, so it is a vitest project of its own ('replica',
// vite.config.ts), run once by `npm test` rather than on each engine's pass of the server suite.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app';
import { type Config, readConfig } from '../../src/server/config';
import { type Database, openDatabase } from '../../src/server/db/open';
import { seedDemoNetwork } from '../../src/server/demo/network';
import { ensureBootstrapAdmin } from '../../src/server/modules/account/index';
import { PersonalDataCipher } from '../../src/server/security/personal-data';
import { verhoeffDigit } from '../../src/shared/identity';
import { freePort } from '../free-port';
import { ADMIN, call, DEMO_PASSWORD, INITIAL_PASSWORD, login, WEBHOOK_SECRET } from './helpers';

const run = promisify(execFile);
const SCRIPT = path.resolve(__dirname, '../../scripts/pg-cluster.sh');
/** Long enough for a loaded 2-core machine to start a server or replay a write; the waits end sooner. */
const WAIT = { timeout: 60_000, interval: 100 };

let clusterEnv: NodeJS.ProcessEnv | undefined;
const cluster = async (verb: string) =>
  (await run('bash', [SCRIPT, verb], { env: clusterEnv, encoding: 'utf8' })).stdout;

let database: Database;
let primary: pg.Pool;
let replicaDirect: pg.Pool;
/** With the replica, its lag limit far above the 2 s delay: these tests are about routing, not lag. */
let app: FastifyInstance;
/** The same database without a replica: what the primary answers. */
let plain: FastifyInstance;
/** With the replica and a lag limit of 1 s. */
let strict: FastifyInstance;
const logs: { app: string; level: number; msg: string }[] = [];
/** Every statement sent to the replica through the server's pool, as its text. */
const onReplica: string[] = [];

const logger = (name: string) => ({
  level: 'info',
  stream: {
    write(line: string) {
      const { level, msg } = JSON.parse(line) as { level: number; msg: string };
      logs.push({ app: name, level, msg });
    },
  },
});
const replicaLogs = (name: string) => logs.filter((l) => l.app === name && /read replica/.test(l.msg));

beforeAll(async () => {
  const port = await freePort();
  let replicaPort = await freePort();
  while (replicaPort === port) replicaPort = await freePort();
  clusterEnv = {
    ...process.env,
    PGDIR: path.join(os.tmpdir(), `tierdesk-replica-${randomBytes(4).toString('hex')}`),
    PGPORT: String(port),
    REPLICA_PORT: String(replicaPort),
    REPLICA_DELAY: '2s',
  };
  const printed = await cluster('start');
  const urls = Object.fromEntries(
    printed
      .trim()
      .split('\n')
      .map((line) => line.split(/=(.*)/s, 2)),
  );
  expect(Object.keys(urls)).toEqual(['DATABASE_URL', 'DATABASE_REPLICA_URL']);

  database = await openDatabase({
    databaseUrl: urls.DATABASE_URL,
    dataDir: '',
    replicaUrl: urls.DATABASE_REPLICA_URL,
  });
  const replicaPool = database.replica?.pool;
  if (!replicaPool) throw new Error('openDatabase opened no replica pool');
  // Every connection the replica pool opens reports what it is asked to run.
  replicaPool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: typeof query }).query = (...args) => {
      const [first] = args as [string | { text?: string }];
      onReplica.push(typeof first === 'string' ? first : (first?.text ?? ''));
      return query(...args);
    };
  });
  primary = new pg.Pool({ connectionString: urls.DATABASE_URL, max: 2 });
  replicaDirect = new pg.Pool({ connectionString: urls.DATABASE_REPLICA_URL, max: 2 });
  // Its idle connections end when the replica is stopped; the next query opens another.
  replicaDirect.on('error', () => {});

  const config: Config = {
    ...readConfig({}),
    dataDir: '',
    databaseUrl: urls.DATABASE_URL,
    databaseReplicaUrl: urls.DATABASE_REPLICA_URL,
    replicaMaxLagSeconds: 600,
    adminUsername: ADMIN.userName,
    adminPassword: ADMIN.password,
    initialPassword: INITIAL_PASSWORD,
    webDir: undefined,
    settlementIntervalMs: 0,
  };
  const cipher = new PersonalDataCipher(randomBytes(32));
  await ensureBootstrapAdmin(database.db, config);
  await seedDemoNetwork(database.db, config, cipher);
  const deps = { db: database.db, cipher, ledgerKey: randomBytes(32), webhookSecret: WEBHOOK_SECRET };
  app = await buildApp({ ...deps, config, replica: database.replica, logger: logger('app') });
  plain = await buildApp({ ...deps, config: { ...config, databaseReplicaUrl: undefined }, logger: false });
  strict = await buildApp({
    ...deps,
    config: { ...config, replicaMaxLagSeconds: 1 },
    replica: database.replica,
    logger: logger('strict'),
  });
  await Promise.all([app.ready(), plain.ready(), strict.ready()]);
  // The replica holds the seeded network before anything is read from it.
  await vi.waitFor(async () => {
    const { rows } = await replicaDirect.query('select count(*)::int as n from users');
    expect(rows[0].n).toBeGreaterThan(20);
  }, WAIT);
}, 300_000);

afterAll(async () => {
  await Promise.all([app?.close(), plain?.close(), strict?.close()]);
  await primary?.end();
  await replicaDirect?.end();
  await database?.close();
  if (clusterEnv) await cluster('stop');
}, 120_000);

/** The names of the newest states in the list as `on` answers it to the holder of `token`. */
async function newestStates(on: FastifyInstance, token: string) {
  const res = await call(on, 'GET', 'state/fetch', {
    token,
    query: { sort: 'createdAt', order: 'DESC', limit: '20' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.state.map((s: { name: string }) => s.name) as string[];
}

/** A state written on the primary behind the app's back: no session knows of it. */
async function stateOnPrimary() {
  const name = `Replica State ${randomBytes(4).toString('hex')}`;
  await primary.query('insert into states (name) values ($1)', [name]);
  return name;
}

const onReplicaNow = async (sql: string, values: unknown[]) =>
  (await replicaDirect.query(sql, values)).rows.length > 0;

function aadhar(seed: number) {
  const base = `6${String(seed).padStart(10, '0')}`;
  return `${base}${verhoeffDigit(base)}`;
}

describe('a read replica 2 s behind the primary', () => {
  it('shows a person the customer they just created in the list they open next, 20 times in a row', async () => {
    const retailer = await login(app, '9300000001', DEMO_PASSWORD);
    const token = retailer.token;
    const self = (await call(app, 'GET', 'account/fetch', { token, query: { _id: retailer.user._id } })).body
      .result.users[0];
    let notYetReplicated = 0;
    for (let i = 1; i <= 20; i++) {
      const created = await call(app, 'POST', 'account/create', {
        token,
        body: {
          type: 1,
          name: `Replica Customer ${i}`,
          email: `replica${i}@example.in`,
          mobile: `95${String(i).padStart(8, '0')}`,
          userName: `replica${i}`,
          districtId: self.districtId,
          tehsilId: self.tehsilId,
          customer: { aadharId: aadhar(i), panId: 'ABCDE1234F' },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const id = created.body.result._id as string;
      const listed = await call(app, 'GET', 'account/fetch', { token, query: { type: '1', limit: '100' } });
      expect(listed.status).toBe(200);
      expect(listed.body.result.users.map((u: { _id: string }) => u._id)).toContain(id);
      // The replica itself had not applied the new customer yet: the list came from the primary.
      if (!(await onReplicaNow('select 1 from users where id = $1', [id]))) notYetReplicated++;
    }
    expect(notYetReplicated).toBeGreaterThan(0);
    // The session carries the primary's position after its latest write.
    const { rows } = await primary.query(
      'select wal_lsn::text as lsn from sessions where user_id = $1 and wal_lsn is not null',
      [retailer.user._id],
    );
    expect(rows.map((r) => r.lsn)).toEqual([expect.stringMatching(/^[0-9A-F]+\/[0-9A-F]+$/)]);

    // Signed in on a second device right after a write, the same person sees it there too.
    const another = await call(app, 'POST', 'account/create', {
      token,
      body: {
        type: 1,
        name: 'Replica Customer 21',
        email: 'replica21@example.in',
        mobile: '9500000021',
        userName: 'replica21',
        districtId: self.districtId,
        tehsilId: self.tehsilId,
        customer: { aadharId: aadhar(21), panId: 'ABCDE1234F' },
      },
    });
    expect(another.status).toBe(200);
    const second = await login(app, '9300000001', DEMO_PASSWORD);
    const there = await call(app, 'GET', 'account/fetch', {
      token: second.token,
      query: { type: '1', limit: '100' },
    });
    expect(there.body.result.users.map((u: { _id: string }) => u._id)).toContain(another.body.result._id);
  });

  it('serves a person from the replica again once its pg_last_wal_replay_lsn() has reached their latest write', async () => {
    const employee = await login(app, '9000000001', DEMO_PASSWORD);
    const name = `Own State ${randomBytes(4).toString('hex')}`;
    expect((await call(app, 'POST', 'state/create', { token: employee.token, body: { name } })).status).toBe(
      200,
    );
    // Their own write, at once, from the primary.
    expect(await newestStates(app, employee.token)).toContain(name);
    const [{ lsn }] = (
      await primary.query(
        'select s.wal_lsn::text as lsn from sessions s where s.user_id = $1 and s.wal_lsn is not null order by s.wal_lsn desc limit 1',
        [employee.user._id],
      )
    ).rows;
    await vi.waitFor(
      async () =>
        expect(
          (await replicaDirect.query('select pg_last_wal_replay_lsn() >= $1::pg_lsn as replayed', [lsn]))
            .rows[0].replayed,
        ).toBe(true),
      WAIT,
    );
    // The replica holds it now: their lists come from it again, which has not yet replayed a state written since.
    const later = await stateOnPrimary();
    const listed = await newestStates(app, employee.token);
    expect(listed).toContain(name);
    expect(listed).not.toContain(later);
    expect(await newestStates(plain, employee.token)).toContain(later);
  });

  it('serves the list of a person who wrote nothing from the replica: a new row shows once it is replayed', async () => {
    const employee = await login(app, '9000000001', DEMO_PASSWORD);
    const name = await stateOnPrimary();
    // Not yet on the replica, which answered; the primary has it.
    expect(await newestStates(app, employee.token)).not.toContain(name);
    expect(await newestStates(plain, employee.token)).toContain(name);
    await vi.waitFor(async () => expect(await newestStates(app, employee.token)).toContain(name), WAIT);
    expect(await onReplicaNow('select 1 from states where name = $1', [name])).toBe(true);
  });

  it('answers from the primary while the replica is stopped, with one warning, and goes back once it runs again', async () => {
    const employee = await login(app, '9000000001', DEMO_PASSWORD);
    const retailer = await login(app, '9300000002', DEMO_PASSWORD);
    await cluster('replica-stop');
    const name = await stateOnPrimary();
    const states = await newestStates(app, employee.token);
    expect(states).toContain(name);
    expect(states).toEqual(await newestStates(plain, employee.token));
    const customers = { type: '1', limit: '100' };
    const listed = await call(app, 'GET', 'account/fetch', { token: retailer.token, query: customers });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual(
      (await call(plain, 'GET', 'account/fetch', { token: retailer.token, query: customers })).body,
    );
    const report = await call(app, 'GET', 'report/userCounts', { token: employee.token });
    expect(report.status).toBe(200);
    expect(report.body).toEqual(
      (await call(plain, 'GET', 'report/userCounts', { token: employee.token })).body,
    );
    // One warning for the outage, not one per read.
    const warnings = replicaLogs('app').filter((l) => l.level === 40);
    expect(warnings.map((l) => l.msg)).toEqual([
      expect.stringMatching(
        /^The read replica cannot be used \([\s\S]+\): list and report reads go to the primary$/,
      ),
    ]);

    await cluster('replica-start');
    // Back on the replica: a state just written on the primary is missing from the list again (the replica
    // applies it 2 s later).
    await vi.waitFor(async () => {
      const fresh = await stateOnPrimary();
      expect(await newestStates(app, employee.token)).not.toContain(fresh);
    }, WAIT);
    expect(replicaLogs('app').at(-1)).toMatchObject({
      level: 30,
      msg: 'The read replica answers again: list and report reads go to it',
    });
  });

  it('reads from the primary, with a warning, while the replica lags more than REPLICA_MAX_LAG_SECONDS', async () => {
    const employee = await login(strict, '9000000001', DEMO_PASSWORD);
    await replicaDirect.query('select pg_wal_replay_pause()');
    try {
      const name = await stateOnPrimary();
      // The paused replica never gets it; once its lag passes 1 s the list comes from the primary.
      await vi.waitFor(async () => expect(await newestStates(strict, employee.token)).toContain(name), WAIT);
      expect(await onReplicaNow('select 1 from states where name = $1', [name])).toBe(false);
      expect(replicaLogs('strict').at(-1)).toMatchObject({
        level: 40,
        msg: expect.stringMatching(
          /^The read replica lags [\d.]+ s, more than REPLICA_MAX_LAG_SECONDS \(1\): list and report reads go to the primary$/,
        ),
      });
    } finally {
      await replicaDirect.query('select pg_wal_replay_resume()');
    }
    // Caught up, it is not lagging, though the last transaction it replayed is older than the limit by now.
    await vi.waitFor(async () => {
      await newestStates(strict, employee.token);
      expect(replicaLogs('strict').at(-1)?.msg).toBe(
        'The read replica answers again: list and report reads go to it',
      );
    }, WAIT);
  });

  it('never sends a session look-up or a write to the replica', () => {
    // The replica answered the lists of states and its own position, and nothing of sessions or writes.
    expect(onReplica.some((text) => /\bstates\b/i.test(text))).toBe(true);
    expect(onReplica.some((text) => /pg_last_wal_replay_lsn/.test(text))).toBe(true);
    expect(onReplica.filter((text) => /\bsessions\b/i.test(text))).toEqual([]);
    expect(onReplica.filter((text) => /^\s*(insert|update|delete)\b/i.test(text))).toEqual([]);
  });
});
