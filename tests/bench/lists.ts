// Benchmark: every list call of the panel at scale (seed:scale's network), through HTTP, sequentially (p50/p95)
// and at concurrency 10 (requests/s), next to a floor measured in the same run: the driver alone running
// `SELECT id FROM users WHERE type = $1 ORDER BY created_at DESC, id DESC LIMIT 10` (the same on postings for
// transactions), once at the start and again beside each call, interleaved with its sequential calls. On PGlite
// and on PostgreSQL (DATABASE_URL, or a throw-away PostgreSQL 15). The calls are made from a worker thread
// (http-client.ts), so the client's work is not counted as the server's.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../../src/server/app';
import { readConfig } from '../../src/server/config';
import type { Database } from '../../src/server/db/open';
import { DEMO_PASSWORD } from '../../src/server/demo/network';
import { seedScale } from '../../src/server/demo/scale';
import { lookupSession } from '../../src/server/http/session-token';
import { ensureBootstrapAdmin } from '../../src/server/modules/account/bootstrap';
import { ledgerKeyFrom, PersonalDataCipher } from '../../src/server/security/personal-data';
import { verhoeffDigit } from '../../src/shared/identity';
import { openEngine } from './engines';
import { httpClient } from './http-client';
import { type Figures, latencies, measure, sequentialTimes } from './measure';

const tokenOf = (header: string | string[] | undefined) => String(header).replace(/^bearer\s+/i, '');

export interface CallResult extends Figures {
  name: string;
  status: number;
  /** p95 over the p95 of the floor measured beside it (interleaved with the call's own sequential calls). */
  ratio: number;
  /** That floor's p50 and p95. */
  floor: Pick<Figures, 'p50' | 'p95'>;
  /** p95 over the p95 of the floor measured once at the start of the engine's run. */
  ratioToRunFloor: number;
}

/** The call's sequential calls and the floor's are taken in this many alternating slices. */
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
    ['sales page 1', 'bought_products/fetch?page=1&limit=10'],
    ['userCounts', 'report/userCounts'],
    ['commission tiles', 'report/commissions'],
  ];
  return {
    admin,
    md: [
      ['MD: its distributors', 'account/fetch?type=3&page=1&limit=10'],
      ['MD: its retailers', 'account/fetch?type=4&page=1&limit=10'],
      ['MD: userCounts', 'report/userCounts'],
      ['MD: commission tiles', 'report/commissions'],
    ] as [string, string][],
    retailer: [
      ['retailer: its customers', 'account/fetch?type=1&page=1&limit=10'],
      ['retailer: its sales', 'bought_products/fetch?page=1&limit=10'],
    ] as [string, string][],
    users: { md: md.mobile as string, retailer: retailer.mobile as string },
    ids: { md: md.id as string, retailer: retailer.id as string },
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

export async function benchLists(
  engine: 'pglite' | 'postgres',
  scale: { users: number; postings: number },
  opts: {
    sequential: number;
    concurrent: number;
    log: (line: string) => void;
    /** Runs while the server still serves the seeded data, with the panel (dist/web) mounted. */
    withServer?: (origin: string, admin: { userName: string; password: string }) => Promise<void>;
  },
) {
  const { database, close } = await openEngine(engine);
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
      webDir: opts.withServer ? path.resolve('dist/web') : undefined,
    };
    await ensureBootstrapAdmin(database.db, config);
    const t0 = performance.now();
    await seedScale(database, config, keys, scale);
    opts.log(
      `  ${engine}: seeded ${scale.users} users and ${scale.postings} postings in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    await settleAfterSeeding(database, opts.log);
    const app = await buildApp({ config, db: database.db, ...keys, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const origin = app.listeningOrigin;
    try {
      const signIn = async (userName: string, password: string) => {
        const first = await fetch(`${origin}/api/v1/state/fetch`);
        const xsrf = /XSRF-TOKEN=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1] ?? '';
        const res = await fetch(`${origin}/api/v1/account/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
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
      const floorUsers = await measure(floorStatement.users, opts);
      const floorPostings = await measure(floorStatement.postings, opts);
      opts.log(
        `  ${engine}: floor users p50 ${floorUsers.p50} ms p95 ${floorUsers.p95} ms ${floorUsers.reqPerSec}/s; postings p95 ${floorPostings.p95} ms`,
      );
      const client = httpClient();
      // What any signed-in call costs before its own work: a bare Fastify route (no plugins, no validation)
      // running the session look-up and the floor statement, through the same client. Printed beside the floor
      // so the p95 ratio can be read against what HTTP and a session alone cost.
      const bare = Fastify();
      bare.get('/floor', async (request) => {
        const found = await lookupSession(database.db, tokenOf(request.headers['x-auth-token']));
        if (found.kind !== 'ok') throw new Error('the bench session is gone');
        const { rows } = await floorStatement.users();
        return { result: rows };
      });
      await bare.listen({ port: 0, host: '127.0.0.1' });
      const { figures: httpFloor } = await client.measure({
        url: `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/floor`,
        token: tokens.admin,
        sequential: opts.sequential,
        concurrent: opts.concurrent,
      });
      await bare.close();
      opts.log(
        `  ${engine}: HTTP floor (bare Fastify, session look-up + floor statement) p50 ${httpFloor.p50} ms p95 ${httpFloor.p95} ms ${httpFloor.reqPerSec}/s (${(httpFloor.p95 / floorUsers.p95).toFixed(1)}x floor)`,
      );
      const results: CallResult[] = [];
      const run = async (token: string, list: [string, string][]) => {
        for (const [name, url] of list) {
          const onPostings = name.startsWith('transactions');
          // The floor is measured beside each call, its sequential runs alternating with the call's in slices,
          // so a stretch of a busy machine (shared and noisy here) weighs on both alike; the floor of the run's
          // start is kept beside it.
          const times: number[] = [];
          const floorTimes: number[] = [];
          let status = 0;
          const slice = Math.max(1, Math.round(opts.sequential / SLICES));
          for (let i = 0; i < SLICES; i++) {
            floorTimes.push(
              ...(await sequentialTimes(floorStatement[onPostings ? 'postings' : 'users'], slice)),
            );
            const answer = await client.run({
              url: `${origin}/api/v1/${url}`,
              token,
              sequential: slice,
              concurrent: 0,
            });
            times.push(...answer.times);
            status = answer.status;
          }
          const { reqPerSec } = await client.run({
            url: `${origin}/api/v1/${url}`,
            token,
            sequential: 0,
            concurrent: opts.concurrent,
          });
          const figures = { ...latencies(times), reqPerSec };
          const floor = latencies(floorTimes);
          const runFloor = onPostings ? floorPostings : floorUsers;
          const result: CallResult = {
            name,
            status,
            ...figures,
            ratio: Number((figures.p95 / floor.p95).toFixed(1)),
            floor,
            ratioToRunFloor: Number((figures.p95 / runFloor.p95).toFixed(1)),
          };
          results.push(result);
          opts.log(
            `  ${engine.padEnd(8)} ${name.padEnd(26)} ${String(status).padEnd(4)} p50 ${String(figures.p50).padStart(7)} ms  p95 ${String(figures.p95).padStart(7)} ms  ${String(figures.reqPerSec).padStart(5)} req/s  ${String(result.ratio).padStart(5)}x floor beside it (p95 ${floor.p95} ms)  ${String(result.ratioToRunFloor).padStart(5)}x run's floor`,
          );
        }
      };
      await run(tokens.admin, calls.admin);
      await run(tokens.md, calls.md);
      await run(tokens.retailer, calls.retailer);
      await client.close();
      await opts.withServer?.(origin, { userName: config.adminUsername, password: config.adminPassword });
      return { floor: { users: floorUsers, postings: floorPostings, http: httpFloor }, calls: results };
    } finally {
      await app.close();
    }
  } finally {
    await close();
  }
}
