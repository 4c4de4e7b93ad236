import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { type Database, openDatabase } from '../../src/server/db/open';
import { postgresRateLimitStore } from '../../src/server/http/rate-limit';
import { SANDBOX_LIMITS } from '../../src/server/modules/partner/sandbox';
import { applicantAadhar, applicationForm, type Place } from './application';
import {
  ADMIN,
  call,
  DEMO_PASSWORD,
  makeTestContext,
  type TestContext,
  WEBHOOK_SECRET,
  XSRF,
} from './helpers';

/**
 * Every limit holds across a fleet (issue 46): three servers on one database behind a balancer (TRUST_PROXY=1,
 * the balancer on 127.0.0.1 naming the client in X-Forwarded-For), each request sent to the next server in turn.
 */
let ctx: TestContext;
let servers: FastifyInstance[] = [];
const ownDatabases: Database[] = [];
let place: Place;

beforeAll(async () => {
  ctx = await makeTestContext({ config: { trustProxy: 1 } });
  servers = [ctx.app];
  for (let n = 1; n < 3; n++) {
    // On PostgreSQL each server gets a pool of its own, as on separate machines; the embedded database lives in
    // one process, so there the servers share its pool.
    const own =
      ctx.database.engine === 'postgres'
        ? await openDatabase({ databaseUrl: ctx.config.databaseUrl, dataDir: '' })
        : undefined;
    if (own) ownDatabases.push(own);
    const app = await buildApp({
      config: ctx.config,
      db: (own ?? ctx.database).db,
      cipher: ctx.cipher,
      ledgerKey: ctx.ledgerKey,
      webhookSecret: WEBHOOK_SECRET,
      logger: false,
    });
    await app.ready();
    servers.push(app);
  }
  const tehsil = (await call(ctx.app, 'GET', 'tehsil/fetch', { query: { limit: '1' } })).body.result
    .tehsil[0];
  place = { stateId: tehsil.stateId._id, districtId: tehsil.districtId._id, tehsilId: tehsil._id };
});
afterAll(async () => {
  for (const app of servers.slice(1)) await app.close();
  for (const database of ownDatabases) await database.close();
  await ctx?.close();
});

const XSRF_HEADERS = { cookie: `XSRF-TOKEN=${XSRF}`, 'x-xsrf-token': XSRF };
const LOCKED = 'Too many failed login attempts. Try again in 15 minutes.';
const SANDBOX_TOO_MANY = 'Too many requests to the sandbox partner from this network. Try again in 1 minute.';

/** The server a round-robin balancer sends the n-th request to. */
const server = (n: number) => servers[n % servers.length];

/** A request as the balancer passes it on to the n-th server: from 127.0.0.1, naming the client's address. */
const through = (n: number, client: string, request: InjectOptions) =>
  server(n).inject({
    ...request,
    remoteAddress: '127.0.0.1',
    headers: { ...request.headers, 'x-forwarded-for': client },
  });

const signIn = (n: number, client: string, userName: string, password: string) =>
  through(n, client, {
    method: 'POST',
    url: '/api/v1/account/login',
    headers: XSRF_HEADERS,
    payload: { userName, password },
  });

/** One whole application (picture and document included), as the public form sends it. */
async function apply(n: number, client: string) {
  const request = new Request('http://x/', {
    method: 'POST',
    body: applicationForm(place, { otherBusinessInfo: { aadharNumber: applicantAadhar(4600 + n) } }),
  });
  return through(n, client, {
    method: 'POST',
    url: '/api/v1/leads/create',
    headers: { ...XSRF_HEADERS, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

/** An unsigned call to the sandbox partner's API: counted by its limit, answered 401. */
const unsignedSandboxCall = (n: number, client: string) =>
  through(n, client, {
    method: 'POST',
    url: '/sandbox/api/payusprint/saving_account',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ accountType: 'PAYUSPRINT-SAVING' }),
  });

const leadCount = async () =>
  Number((await ctx.database.pool.query('select count(*) as n from leads')).rows[0].n);

describe('the per-account sign-in lock holds across servers', () => {
  it('five wrong passwords spread over three servers lock the account from that address, on every server', async () => {
    const client = '203.0.113.1';
    for (let n = 0; n < 5; n++) {
      const res = await signIn(n, client, '9300000002', `Wrong@${n}000`);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('Invalid username or password');
    }
    // The right password is refused too, whichever server is asked.
    for (let n = 5; n < 8; n++) {
      const locked = await signIn(n, client, '9300000002', DEMO_PASSWORD);
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual({ message: LOCKED });
      expect(locked.headers['retry-after']).toBe('900');
    }
    // The owner elsewhere still signs in.
    expect((await signIn(8, '203.0.113.2', '9300000002', DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('twenty wrong passwords from four addresses over three servers lock the account for everyone', async () => {
    let n = 0;
    for (let address = 1; address <= 4; address++)
      for (let i = 0; i < 5; i++) {
        const res = await signIn(n++, `203.0.113.1${address}`, '9300000003', `Wrong@${i}000`);
        expect(res.statusCode).toBe(401);
      }
    for (let k = 0; k < 3; k++) {
      const owner = await signIn(n++, '203.0.113.19', '9300000003', DEMO_PASSWORD);
      expect(owner.statusCode).toBe(429);
      expect(owner.json()).toEqual({ message: LOCKED });
    }
  });
});

describe('the per-address limits hold across servers', () => {
  it('the per-address sign-in limit counts attempts on every server together', async () => {
    const client = '203.0.113.20';
    const max = ctx.config.signInsPerAddress;
    for (let n = 0; n < max; n++) {
      const res = await signIn(n, client, `sprayed-${n}`, 'Summer@2026');
      expect(res.statusCode).toBe(401);
    }
    // Each server saw a third of them; the next, on any server, is refused, the right password included.
    for (let n = max; n < max + 3; n++) {
      const limited = await signIn(n, client, ADMIN.userName, ADMIN.password);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({
        message: 'Too many sign-in attempts from this network. Try again in 15 minutes.',
      });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(850);
    }
    expect((await signIn(0, '203.0.113.21', ADMIN.userName, ADMIN.password)).statusCode).toBe(200);
  });

  it('eleven applications from one address spread over three servers meet the lead-intake limit', async () => {
    const client = '203.0.113.30';
    for (let n = 0; n < 10; n++) {
      const res = await apply(n, client);
      expect(res.statusCode, res.body).toBe(200);
    }
    const before = await leadCount();
    const limited = await apply(10, client);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      message: 'Too many applications from this network. Please try again in an hour.',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    expect(await leadCount()).toBe(before);
    // Another address is not held back.
    expect((await apply(11, '203.0.113.31')).statusCode).toBe(200);
  });

  it('the sandbox partner’s limit on unsigned calls counts them on every server together', async () => {
    const client = '203.0.113.40';
    for (let n = 0; n < SANDBOX_LIMITS.api.max; n++)
      expect((await unsignedSandboxCall(n, client)).statusCode).toBe(401);
    for (let n = SANDBOX_LIMITS.api.max; n < SANDBOX_LIMITS.api.max + 3; n++) {
      const limited = await unsignedSandboxCall(n, client);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ message: SANDBOX_TOO_MANY });
    }
  });

  it('a window that has ended starts afresh on any server', async () => {
    const client = '203.0.113.50';
    for (let n = 0; n < SANDBOX_LIMITS.api.max; n++)
      expect((await unsignedSandboxCall(n, client)).statusCode).toBe(401);
    expect((await unsignedSandboxCall(0, client)).statusCode).toBe(429);
    // The window's end comes (moved to now rather than waited for).
    const moved = await ctx.database.pool.query(
      "update rate_limit_hits set resets_at = now() - interval '1 millisecond' where key like $1",
      [`%-${client}`],
    );
    expect(moved.rowCount).toBe(1);
    for (let n = 1; n <= 3; n++) {
      const res = await unsignedSandboxCall(n, client);
      expect(res.statusCode).toBe(401);
      // Counted from one again, in a whole new window.
      expect(res.headers['x-ratelimit-remaining']).toBe(String(SANDBOX_LIMITS.api.max - n));
      expect(res.headers['x-ratelimit-reset']).toBe('60');
    }
  });

  it('counts every one of many requests at once from one address, whichever server takes each', async () => {
    const client = '203.0.113.60';
    const max = SANDBOX_LIMITS.page.max;
    // The opening page without its key: refused (403) before the database is asked, counted all the same.
    const page = (n: number) => through(n, client, { method: 'GET', url: '/sandbox/open?utmCode=SBX0' });
    const answers = await Promise.all(Array.from({ length: max }, (_, n) => page(n)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(max).fill(403));
    // Each request got a count of its own: no two saw the same, none was lost.
    const remaining = answers.map((a) => Number(a.headers['x-ratelimit-remaining'])).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: max }, (_, i) => i));
    const limited = await page(max);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: SANDBOX_TOO_MANY });
    const { rows } = await ctx.database.pool.query('select hits from rate_limit_hits where key like $1', [
      `%-${client}`,
    ]);
    expect(rows).toEqual([{ hits: max + 1 }]);
  });
});

describe('the counters table', () => {
  it('prunes counters whose window has ended when a server starts, and keeps running ones', async () => {
    await ctx.database.pool.query(
      `insert into rate_limit_hits (key, hits, resets_at) values
        ('prune-ended', 3, now() - interval '1 second'), ('prune-running', 3, now() + interval '1 minute')`,
    );
    const app = await buildApp({
      config: ctx.config,
      db: ctx.database.db,
      cipher: ctx.cipher,
      ledgerKey: ctx.ledgerKey,
      webhookSecret: WEBHOOK_SECRET,
      logger: false,
    });
    await app.ready();
    await app.close();
    const { rows } = await ctx.database.pool.query(
      "select key from rate_limit_hits where key like 'prune-%' order by key",
    );
    expect(rows).toEqual([{ key: 'prune-running' }]);
  });

  it('refuses, when the app is built, a route asking for a window that stretches while exceeded', async () => {
    const stretching = [
      ['continueExceeding', { max: 1, continueExceeding: true }],
      ['exponentialBackoff', { max: 1, exponentialBackoff: true }],
    ] as const;
    for (const [option, limit] of stretching) {
      const app = Fastify();
      try {
        await app.register(rateLimit, { global: false, store: postgresRateLimitStore(ctx.database.db) });
        const built = async () => {
          app.get('/limited', { config: { rateLimit: limit } }, async () => 'ok');
          await app.ready();
        };
        await expect(built()).rejects.toThrow(
          `The PostgreSQL rate-limit store counts fixed windows: ${option} is not supported (http/rate-limit.ts)`,
        );
      } finally {
        await app.close().catch(() => undefined);
      }
    }
  });
});
