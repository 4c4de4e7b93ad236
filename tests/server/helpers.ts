import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type pg from 'pg';
import { inject } from 'vitest';
import { type AppDeps, buildApp } from '../../src/server/app';
import { type Config, readConfig } from '../../src/server/config';
import { type Database, openDatabase } from '../../src/server/db/open';
import { seedDemoNetwork } from '../../src/server/demo/network';
import { ensureBootstrapAdmin } from '../../src/server/modules/account/index';
import { PersonalDataCipher } from '../../src/server/security/personal-data';
import { seedScale } from '../bench/scale';
import { throwAwayDatabase } from '../throwaway-database';

export { DEMO_PASSWORD } from '../../src/server/demo/network';
export const ADMIN = { userName: '9999999999', password: 'Admin@1234' };
export const INITIAL_PASSWORD = 'Welcome@123';
export const XSRF = 'test-xsrf-token';
/** The partner's callback secret in tests (PROVIDER_WEBHOOK_SECRET). */
export const WEBHOOK_SECRET = 'test-webhook-secret';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** Seals the ledger's postings in this context. */
  ledgerKey: Buffer;
  /** Encrypts and hashes personal data (Aadhar) in this context. */
  cipher: PersonalDataCipher;
  close(): Promise<void>;
}

/**
 * A real app over a real, fresh database: embedded PGlite in memory by default, or, when DATABASE_URL
 * names a PostgreSQL server (CI's second run), a throw-away database created on it for this test file.
 */
export async function makeTestContext(
  opts: {
    demo?: boolean;
    logger?: AppDeps['logger'];
    onRoute?: AppDeps['onRoute'];
    config?: Partial<Config>;
  } = {},
): Promise<TestContext> {
  const serverUrl = process.env.DATABASE_URL;
  const throwAway = serverUrl ? await throwAwayDatabase(serverUrl, 'tierdesk_test') : undefined;
  const databaseUrl = throwAway?.url ?? 'memory://';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-test-'));
  const config: Config = {
    ...readConfig({}),
    dataDir,
    databaseUrl,
    adminUsername: ADMIN.userName,
    adminPassword: ADMIN.password,
    initialPassword: INITIAL_PASSWORD,
    webDir: undefined,
    logLevel: 'silent',
    // The settlement job is run by hand in tests (modules/ledger/settlement.ts).
    settlementIntervalMs: 0,
    // The notification runner runs only in the tests that send notifications (notifications.test.ts).
    notify: { ...readConfig({}).notify, intervalMs: 0 },
    ...opts.config,
  };
  const database = await openDatabase({ databaseUrl, dataDir: '', cluster: inject('pgliteCluster') });
  const cipher = new PersonalDataCipher(randomBytes(32));
  const ledgerKey = randomBytes(32);
  await ensureBootstrapAdmin(database.db, config);
  if (opts.demo !== false) await seedDemoNetwork(database.db, config, cipher);
  const app = await buildApp({
    config,
    db: database.db,
    cipher,
    ledgerKey,
    webhookSecret: WEBHOOK_SECRET,
    logger: opts.logger ?? false,
    onRoute: opts.onRoute,
  });
  await app.ready();
  return {
    app,
    database,
    config,
    ledgerKey,
    cipher,
    async close() {
      await app.close();
      await database.close();
      await throwAway?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A test context holding seed:scale's network at a small scale: 2,000 users and 3,000 postings by default. */
export async function makeScaledContext(scale = { users: 2000, postings: 3000 }) {
  const ctx = await makeTestContext({ demo: false });
  await seedScale(ctx.database, ctx.config, { cipher: ctx.cipher, ledgerKey: ctx.ledgerKey }, scale);
  return ctx;
}

/**
 * The dashboard's money tiles recounted in rupees from every posting and wallet, for the users whose path starts
 * with `prefix` (everyone: '/'): the oracle report/commissions is checked against, written apart from its SQL.
 */
export async function recountTiles(database: Database, prefix: string) {
  const since = (unit: string) =>
    `(date_trunc('${unit}', now() at time zone 'Asia/Kolkata') at time zone 'Asia/Kolkata')`;
  const [row] = (
    await database.pool.query(
      `select
        (select coalesce(sum(p.amount_paise), 0) from postings p join users u on u.id = p.user_id
          where p.kind = 'COMMISSION' and p.created_at >= ${since('day')} and u.path like $1) as today,
        (select coalesce(sum(p.amount_paise), 0) from postings p join users u on u.id = p.user_id
          where p.kind = 'COMMISSION' and p.created_at >= ${since('month')} and u.path like $1) as month,
        (select coalesce(sum(w.clearing_balance_paise), 0) from wallets w join users u on u.id = w.user_id
          where u.path like $1) as clearing`,
      [`${prefix}%`],
    )
  ).rows;
  return {
    today: Number(row.today) / 100,
    month: Number(row.month) / 100,
    clearing: Number(row.clearing) / 100,
  };
}

type Method = 'GET' | 'POST';

/** The body the panel sends to save a user unchanged except for what the caller adds (its parents, to move it). */
export async function saveBodyOf(app: FastifyInstance, token: string, id: string) {
  const u = (await call(app, 'GET', 'account/fetch', { token, query: { _id: id } })).body.result.users[0];
  return {
    type: u.type,
    name: u.name,
    email: u.email.address,
    mobile: u.mobile.number,
    userName: u.userName.id,
    districtId: u.districtId,
    tehsilId: u.tehsilId,
    ...(u.customer
      ? { customer: { panId: u.customer.panId, aadharId: '', retailerId: u.customer.retailerId } }
      : {}),
  };
}

/** Calls the API as the panel does: JSON, the XSRF cookie echoed in its header, and an optional token. */
export async function call(
  app: FastifyInstance,
  method: Method,
  path: string,
  opts: { token?: string; body?: unknown; query?: Record<string, string>; xsrf?: boolean; ip?: string } = {},
) {
  const headers: Record<string, string> = {};
  const request: InjectOptions = { method, url: `/api/v1/${path}`, headers };
  if (opts.ip) request.remoteAddress = opts.ip;
  if (opts.token) headers['x-auth-token'] = `bearer ${opts.token}`;
  if (opts.xsrf !== false) {
    headers.cookie = `XSRF-TOKEN=${XSRF}`;
    headers['x-xsrf-token'] = XSRF;
  }
  if (opts.query) request.query = opts.query;
  if (opts.body !== undefined) request.payload = opts.body as InjectOptions['payload'];
  const response = await app.inject(request);
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

let addressCounter = 0;
/** A new client address each time, so sign-ins made to set a test up never meet the per-address limit. */
export const freshAddress = () => {
  addressCounter += 1;
  return `10.88.${Math.floor(addressCounter / 250) % 250}.${(addressCounter % 250) + 1}`;
};

export async function login(app: FastifyInstance, userName: string, password: string) {
  const res = await call(app, 'POST', 'account/login', { body: { userName, password }, ip: freshAddress() });
  if (res.status !== 200)
    throw new Error(`login ${userName} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result as {
    token: string;
    user: { _id: string; type: number; passwordUpdatedAt: string | null };
  };
}

/** A statement as a pool was asked to run it. */
export interface SentStatement {
  text: string;
  values: unknown[];
  /** Sent as a prepared statement under this name (db/statements.ts, db/list.ts). */
  name?: string;
}

/**
 * Has `pool` hand every statement it is asked to run to `seen` as well, passing it on unchanged; the function
 * returned stops that.
 */
export function recordStatements(pool: pg.Pool, seen: (statement: SentStatement) => void) {
  const target = pool as unknown as { query: (...args: unknown[]) => Promise<unknown> };
  const query = target.query;
  target.query = (...args) => {
    const [first, second] = args as [
      string | { text: string; values?: unknown[]; name?: string },
      unknown[] | undefined,
    ];
    const text = typeof first === 'string' ? first : first.text;
    const values = (typeof first === 'string' ? undefined : first.values) ?? second ?? [];
    seen({ text, values, name: typeof first === 'string' ? undefined : first.name });
    return query.apply(pool, args);
  };
  return () => {
    target.query = query;
  };
}
