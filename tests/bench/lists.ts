// Benchmark: every list call of the panel at scale (seed:scale's network), through HTTP, sequentially (p50/p95)
// and at concurrency 10 (requests/s), next to a floor measured in the same run: the driver alone running
// `SELECT id FROM users WHERE type = $1 ORDER BY created_at DESC, id DESC LIMIT 10` (the same on postings for
// transactions), once at the start and again beside each call, interleaved with its sequential calls. On PGlite
// and on PostgreSQL (DATABASE_URL, or a throw-away PostgreSQL 15), served side by side and measured call by call
// in turn (benchLists). The calls are made from a worker thread (http-client.ts), so the client's work is not
// counted as the server's.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../../src/server/app';
import { readConfig } from '../../src/server/config';
import type { Database } from '../../src/server/db/open';
import { DEMO_PASSWORD } from '../../src/server/demo/network';
import { lookupSession } from '../../src/server/http/session-token';
import { ensureBootstrapAdmin } from '../../src/server/modules/account/index';
import { ledgerKeyFrom, PersonalDataCipher } from '../../src/server/security/personal-data';
import { verhoeffDigit } from '../../src/shared/identity';
import { openEngine } from './engines';
import { httpClient } from './http-client';
import { type Figures, latencies, measure } from './measure';
import { seedScale } from './scale';

const tokenOf = (header: string | string[] | undefined) => String(header).replace(/^bearer\s+/i, '');

export interface CallResult extends Figures {
  name: string;
  status: number;
}

/** The call's sequential calls are taken in this many slices, alternating between the engines. */
const SLICES = 10;

/** The list calls the panel makes, with parameters taken from the seeded network. */
export async function panelCalls(database: Database) {
  const q = async (text: string, params: unknown[] = []) => (await database.pool.query(text, params)).rows;
  const [md] = await q(`select id, mobile from users where type = 2 order by created_at limit 1`);
  const [retailer] = await q(
    `select r.id, r.mobile from users r where r.type = 4 and exists (select 1 from users c where c.retailer_id = r.id) order by r.created_at limit 1`,
  );
  const [customer] = await q(
    `select id, name, mobile from users where type = 1 order by created_at desc limit 1 offset 500`,
  );
  const [sale] = await q(`select id from bought_products order by created_at desc limit 1 offset 100`);
  const [adminUser] = await q(`select id from users where type = 0 order by created_at limit 1`);
  // Ranges of days (India's calendar, as the ledger counts them): the last 30 days of postings, and one day 90
  // days before the last.
  const [days] = await q(
    `select to_char(d - 29, 'YYYY-MM-DD') as "monthFrom", to_char(d, 'YYYY-MM-DD') as "monthTo",
        to_char(d - 90, 'YYYY-MM-DD') as "pastDay"
      from (select (max(created_at) at time zone 'Asia/Kolkata')::date as d from postings) as last`,
  );
  const month = `from=${days.monthFrom}&to=${days.monthTo}`;
  const pastDay = `from=${days.pastDay}&to=${days.pastDay}`;
  // The dashboard's charts (issue 55) ask for the month of the last postings.
  const chartMonth = `month=${String(days.monthTo).slice(0, 7)}`;
  const [{ n: customers }] = await q(`select count(*)::int as n from users where type = 1`);
  const lastPage = Math.ceil(customers / 10);
  const base = `3${String(1).padStart(10, '0')}`;
  const aadhar = `${base}${verhoeffDigit(base)}`;
  const nameFragment = String(customer.name).split(' ')[1];
  const admin: [string, string][] = [
    ...[1, 2, 3, 4, 5].flatMap((type): [string, string][] => [
      [`type ${type} page 1`, `account/fetch?type=${type}&page=1&limit=10`],
    ]),
    ['customers page 500', 'account/fetch?type=1&page=500&limit=10'],
    ['customers last page', `account/fetch?type=1&page=${lastPage}&limit=10`],
    [
      'customers search name',
      `account/fetch?type=1&page=1&limit=10&searchText=${encodeURIComponent(nameFragment)}`,
    ],
    ['customers search mobile', `account/fetch?type=1&page=1&limit=10&searchText=${customer.mobile}`],
    ['customers search Aadhar', `account/fetch?type=1&page=1&limit=10&searchText=${aadhar}`],
    [
      'typeahead retailers',
      `account/fetch?type=4&page=1&limit=10&searchText=${String(retailer.mobile).slice(0, 7)}`,
    ],
    ['transactions page 1', 'transactions/fetch?page=1&limit=10'],
    ['transactions by type', 'transactions/fetch?page=1&limit=10&userType=4'],
    ['transactions by user', `transactions/fetch?page=1&limit=10&userId=${retailer.id}`],
    ['transactions by kind', 'transactions/fetch?page=1&limit=10&transactionType=DEBIT'],
    ['transactions by sale', `transactions/fetch?page=1&limit=10&boughtProductId=${sale.id}`],
    // Issue 43: ranges of days, each answering the totals of its whole filter.
    ['transactions in 30 days', `transactions/fetch?page=1&limit=10&${month}`],
    ['transactions on a past day', `transactions/fetch?page=1&limit=10&${pastDay}`],
    ['transactions by type in 30 days', `transactions/fetch?page=1&limit=10&userType=4&${month}`],
    ['transactions by user in 30 days', `transactions/fetch?page=1&limit=10&userId=${retailer.id}&${month}`],
    ['admin transactions in 30 days', `transactions/fetch?page=1&limit=10&userId=${adminUser.id}&${month}`],
    [
      'admin transactions on a past day',
      `transactions/fetch?page=1&limit=10&userId=${adminUser.id}&${pastDay}`,
    ],
    ['sales page 1', 'bought_products/fetch?page=1&limit=10'],
    ['userCounts', 'report/userCounts'],
    ['commission tiles', 'report/commissions'],
    ['charts: 60 days', 'report/trends?days=60'],
    ['charts: top retailers', `report/top?${chartMonth}&limit=10`],
    ['charts: sales by product', `report/products?${chartMonth}`],
  ];
  return {
    admin,
    md: [
      ['MD: its distributors', 'account/fetch?type=3&page=1&limit=10'],
      ['MD: its retailers', 'account/fetch?type=4&page=1&limit=10'],
      ['MD: userCounts', 'report/userCounts'],
      ['MD: commission tiles', 'report/commissions'],
      ['MD: charts, 60 days', 'report/trends?days=60'],
      ['MD: charts, top retailers', `report/top?${chartMonth}&limit=10`],
      ['MD: charts, sales by product', `report/products?${chartMonth}`],
      ['MD: its wallet in 30 days', `wallet/fetch?page=1&limit=10&${month}`],
    ] as [string, string][],
    retailer: [
      ['retailer: its customers', 'account/fetch?type=1&page=1&limit=10'],
      ['retailer: its sales', 'bought_products/fetch?page=1&limit=10'],
      ['retailer: its wallet in 30 days', `wallet/fetch?page=1&limit=10&${month}`],
      ['retailer: charts, 60 days', 'report/trends?days=60'],
    ] as [string, string][],
    users: { md: md.mobile as string, retailer: retailer.mobile as string },
    ids: {
      md: md.id as string,
      retailer: retailer.id as string,
      admin: adminUser.id as string,
      sale: sale.id as string,
    },
    days: days as { monthFrom: string; monthTo: string; pastDay: string },
  };
}

/**
 * What the seeding leaves behind, cleared before anything is timed, so the figures are a running server's and not
 * the seed's aftermath: PostgreSQL's dirty pages (a checkpoint would otherwise write a million rows out in the
 * first minutes of the run) and this process's garbage from building them (collected when the bench runs
 * with --expose-gc, as `npm run bench` does).
 */
async function settleAfterSeeding(database: Database, log: (line: string) => void) {
  try {
    await database.pool.query('checkpoint');
  } catch (error) {
    log(`  (no checkpoint after seeding: ${(error as Error).message})`);
  }
  (globalThis as { gc?: () => void }).gc?.();
}

export type Engine = 'pglite' | 'postgres';

export interface EngineResult {
  floor: { users: Figures; postings: Figures; http: Figures };
  /** Each run's figures of every call, and per call the median of the runs' p50, p95 and requests/s. */
  runs: CallResult[][];
  calls: CallResult[];
}

/** The median of a few numbers (the middle one of three). */
export const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Per call, the median of the runs' figures. */
function medianOf(runs: CallResult[][]): CallResult[] {
  return (runs[0] ?? []).map((first) => {
    const all = runs.map((run) => run.find((c) => c.name === first.name) ?? first);
    return {
      ...first,
      p50: median(all.map((c) => c.p50)),
      p95: median(all.map((c) => c.p95)),
      reqPerSec: median(all.map((c) => c.reqPerSec)),
    };
  });
}

/** One engine seeded and served: its app on a port, the bench users signed in, its floors. */
interface Served {
  engine: Engine;
  database: Database;
  origin: string;
  config: ReturnType<typeof readConfig>;
  calls: Awaited<ReturnType<typeof panelCalls>>;
  tokens: { admin: string; md: string; retailer: string };
  /** The Cookie header the panel sends with every call (its XSRF-TOKEN): the calls carry it as a browser's do. */
  cookie: string;
  floorStatement: { users: () => Promise<{ rows: unknown[] }>; postings: () => Promise<{ rows: unknown[] }> };
  close(): Promise<void>;
}

/** Opens, seeds and serves one engine; the caller closes it. */
async function serveEngine(
  engine: Engine,
  scale: { users: number; postings: number },
  opts: { log: (line: string) => void; withPanel: boolean },
): Promise<Served> {
  const { database, close } = await openEngine(engine);
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    const dataKey = randomBytes(32);
    const keys = {
      cipher: new PersonalDataCipher(dataKey),
      ledgerKey: ledgerKeyFrom(dataKey),
      webhookSecret: 'bench',
    };
    const config = {
      ...readConfig({}),
      settlementIntervalMs: 0,
      logLevel: 'warn',
      webDir: opts.withPanel ? path.resolve('dist/web') : undefined,
    };
    await ensureBootstrapAdmin(database.db, config);
    const t0 = performance.now();
    await seedScale(database, config, keys, scale);
    opts.log(
      `  ${engine}: seeded ${scale.users} users and ${scale.postings} postings in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    await settleAfterSeeding(database, opts.log);
    const server = await buildApp({ config, db: database.db, ...keys, logger: false });
    app = server;
    await server.listen({ port: 0, host: '127.0.0.1' });
    const origin = server.listeningOrigin;
    // The XSRF cookie the server hands a browser on its first call; the panel sends it back with every call after.
    const first = await fetch(`${origin}/api/v1/state/fetch`);
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1] ?? '';
    const cookie = `XSRF-TOKEN=${xsrf}`;
    const signIn = async (userName: string, password: string) => {
      const res = await fetch(`${origin}/api/v1/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, 'x-xsrf-token': xsrf },
        body: JSON.stringify({ userName, password }),
      });
      const body = (await res.json()) as { result?: { token: string } };
      if (!body.result) throw new Error(`sign-in of ${userName} failed: ${JSON.stringify(body)}`);
      return body.result.token;
    };
    const calls = await panelCalls(database);
    const tokens = {
      admin: await signIn(config.adminUsername, config.adminPassword),
      md: await signIn(calls.users.md, DEMO_PASSWORD),
      retailer: await signIn(calls.users.retailer, DEMO_PASSWORD),
    };
    const floorStatement = {
      users: () =>
        database.pool.query(
          'SELECT id FROM users WHERE type = $1 ORDER BY created_at DESC, id DESC LIMIT 10',
          [1],
        ),
      postings: () =>
        database.pool.query('SELECT id FROM postings ORDER BY created_at DESC, id DESC LIMIT 10'),
    };
    const closeAll = async () => {
      await server.close();
      await close();
    };
    return { engine, database, origin, config, calls, tokens, cookie, floorStatement, close: closeAll };
  } catch (error) {
    await app?.close();
    await close();
    throw error;
  }
}

/** The floors at the start of the run: the driver's statements, and the HTTP floor (below). */
async function engineFloors(
  served: Served,
  client: ReturnType<typeof httpClient>,
  opts: { sequential: number; concurrent: number; warmUp: number; log: (line: string) => void },
) {
  const { engine, floorStatement, tokens, cookie } = served;
  const users = await measure(floorStatement.users, opts);
  const postings = await measure(floorStatement.postings, opts);
  opts.log(
    `  ${engine}: floor users p50 ${users.p50} ms p95 ${users.p95} ms ${users.reqPerSec}/s; postings p95 ${postings.p95} ms`,
  );
  // What any signed-in call costs before its own work: a bare Fastify route (no plugins, no validation)
  // running the session look-up and the floor statement, through the same client: printed for reference.
  const bare = Fastify();
  bare.get('/floor', async (request) => {
    const found = await lookupSession(served.database.db, tokenOf(request.headers['x-auth-token']));
    if (found.kind !== 'ok') throw new Error('the bench session is gone');
    const { rows } = await floorStatement.users();
    return { result: rows };
  });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const floorUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/floor`;
  // Warmed as the calls are (warmUpCalls), so the two are compared in the same state.
  await client.run({ url: floorUrl, token: tokens.admin, cookie, sequential: 0, concurrent: opts.warmUp });
  const { figures: http } = await client.measure({
    url: floorUrl,
    token: tokens.admin,
    cookie,
    sequential: opts.sequential,
    concurrent: opts.concurrent,
  });
  await bare.close();
  opts.log(
    `  ${engine}: HTTP floor (bare Fastify, session look-up + floor statement) p50 ${http.p50} ms p95 ${http.p95} ms ${http.reqPerSec}/s (${(http.p95 / users.p95).toFixed(1)}x floor)`,
  );
  return { users, postings, http };
}

const GROUPS = ['admin', 'md', 'retailer'] as const;

/** A call's URL on one served engine. */
function urlOf(s: Served, group: (typeof GROUPS)[number], name: string) {
  const found = s.calls[group].find(([n]) => n === name);
  if (!found) throw new Error(`${s.engine} has no call ${name}`);
  return `${s.origin}/api/v1/${found[1]}`;
}

/**
 * Every call on every engine, `warmUp` times at concurrency 10, before anything is timed: the figures are a
 * running server's, not a fresh process's still compiling its hot paths. Every list is warmed, not only the one
 * about to be measured, so code they share has met all their shapes before any is timed.
 */
async function warmUpCalls(served: Served[], client: ReturnType<typeof httpClient>, warmUp: number) {
  if (warmUp <= 0) return;
  for (const s of served) {
    for (const group of GROUPS) {
      for (const [name] of s.calls[group]) {
        await client.run({
          url: urlOf(s, group, name),
          token: s.tokens[group],
          cookie: s.cookie,
          sequential: 0,
          concurrent: warmUp,
        });
      }
    }
  }
}

/**
 * Every list call of the panel on each engine, measured `repeats` times (the budgets are read on the median).
 * The engines are seeded and served side by side, and measured call by call in turn: each call's sequential
 * runs in slices alternating between the engines (which goes first alternates too), and its runs at concurrency
 * 10 in two halves alternating the same way, so a busy stretch of a shared machine weighs on both alike.
 */
export async function benchLists(
  engines: readonly Engine[],
  scale: { users: number; postings: number },
  opts: {
    sequential: number;
    concurrent: number;
    /** Calls of each list on each engine before any is timed (warmUpCalls). */
    warmUp: number;
    /** How many times every call is measured. */
    repeats: number;
    log: (line: string) => void;
    /** Runs on one engine while its server still serves the seeded data, with the panel (dist/web) mounted. */
    withServer?: {
      engine: Engine;
      run(origin: string, admin: { userName: string; password: string }): Promise<void>;
    };
  },
): Promise<Partial<Record<Engine, EngineResult>>> {
  const served: Served[] = [];
  const client = httpClient();
  try {
    for (const engine of engines) {
      served.push(
        await serveEngine(engine, scale, { log: opts.log, withPanel: opts.withServer?.engine === engine }),
      );
    }
    const warmStarted = performance.now();
    await warmUpCalls(served, client, opts.warmUp);
    opts.log(
      `  warmed up: every call ${opts.warmUp} times on each engine in ${((performance.now() - warmStarted) / 1000).toFixed(0)} s`,
    );
    const floors = new Map<Engine, EngineResult['floor']>();
    for (const s of served) floors.set(s.engine, await engineFloors(s, client, opts));
    const runs = new Map<Engine, CallResult[][]>(served.map((s) => [s.engine, []]));
    const inTurn = (i: number) => (i % 2 === 0 ? served : [...served].reverse());
    for (let run = 1; run <= opts.repeats; run++) {
      opts.log(`  run ${run} of ${opts.repeats}:`);
      const results = new Map<Engine, CallResult[]>(served.map((s) => [s.engine, []]));
      for (const group of GROUPS) {
        for (const [name] of served[0].calls[group]) {
          const times = new Map<Engine, number[]>(served.map((s) => [s.engine, []]));
          const status = new Map<Engine, number>();
          const slice = Math.max(1, Math.round(opts.sequential / SLICES));
          for (let i = 0; i < SLICES; i++) {
            for (const s of inTurn(i)) {
              const answer = await client.run({
                url: urlOf(s, group, name),
                token: s.tokens[group],
                cookie: s.cookie,
                sequential: slice,
                concurrent: 0,
              });
              times.get(s.engine)?.push(...answer.times);
              status.set(s.engine, answer.status);
            }
          }
          // Requests/s of the two halves together: all the calls over the time they took.
          const rate = new Map<Engine, { calls: number; seconds: number }>();
          for (let half = 0; half < 2; half++) {
            for (const s of inTurn(half)) {
              const calls = Math.ceil(opts.concurrent / 2);
              const { reqPerSec } = await client.run({
                url: urlOf(s, group, name),
                token: s.tokens[group],
                cookie: s.cookie,
                sequential: 0,
                concurrent: calls,
              });
              const sum = rate.get(s.engine) ?? { calls: 0, seconds: 0 };
              rate.set(s.engine, { calls: sum.calls + calls, seconds: sum.seconds + calls / reqPerSec });
            }
          }
          for (const s of served) {
            const sum = rate.get(s.engine) ?? { calls: 0, seconds: 1 };
            const result: CallResult = {
              name,
              status: status.get(s.engine) ?? 0,
              ...latencies(times.get(s.engine) ?? []),
              reqPerSec: Math.round(sum.calls / sum.seconds),
            };
            results.get(s.engine)?.push(result);
            opts.log(
              `    ${s.engine.padEnd(8)} ${name.padEnd(26)} ${String(result.status).padEnd(4)} p50 ${String(result.p50).padStart(7)} ms  p95 ${String(result.p95).padStart(7)} ms  ${String(result.reqPerSec).padStart(5)} req/s`,
            );
          }
        }
      }
      for (const s of served) runs.get(s.engine)?.push(results.get(s.engine) ?? []);
    }
    const withServer = opts.withServer;
    const panelEngine = served.find((s) => s.engine === withServer?.engine);
    if (withServer && panelEngine) {
      // The other engines are closed first: the browser's figures are the one server's.
      const others = served.filter((other) => other !== panelEngine);
      served.splice(0, served.length, panelEngine);
      for (const s of others) await s.close();
      await withServer.run(panelEngine.origin, {
        userName: panelEngine.config.adminUsername,
        password: panelEngine.config.adminPassword,
      });
    }
    const out: Partial<Record<Engine, EngineResult>> = {};
    for (const engine of engines) {
      const floor = floors.get(engine);
      const measured = runs.get(engine);
      if (floor && measured) out[engine] = { floor, runs: measured, calls: medianOf(measured) };
    }
    return out;
  } finally {
    await client.close();
    for (const s of served) await s.close();
  }
}
