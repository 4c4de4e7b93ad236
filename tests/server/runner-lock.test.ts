// One runner at a time (db/runner-lock.ts): the settlement job runs on the server holding its runner lock, and
// another takes it up once that server is gone; never while it lives. Here within one process, on the suite's
// engine: on PostgreSQL each "server" holds its locks on a connection of its own; on the embedded database they all
// share its one session, where this process must keep two runs apart itself. Servers as real processes, killed,
// and a failover are in failover.test.ts (the replica project, on PostgreSQL servers of its own).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RunnerLocks } from '../../src/server/db/runner-lock';
import {
  type JobLog,
  runSettlementJob,
  startSettlementJob,
} from '../../src/server/modules/ledger/settlement';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext } from './helpers';
import { deliver, idsByMobile, productIdOf, sell } from './selling';

let ctx: TestContext;
let retailer: string;
let ids: Record<string, string>;
let savingId: string;

const wallet = async () =>
  (await call(ctx.app, 'GET', 'wallet/fetch', { token: retailer })).body.result.wallet;

/** A confirmed ₹500 saving-account sale by retailer 1: its ₹100 share waits in clearing. */
async function confirmedSale() {
  const { utmCode, merchantCode } = await sell(ctx.app, retailer, {
    customerId: ids['9400000001'],
    productId: savingId,
  });
  expect((await deliver(ctx.app, { event: 'account.opened', utmCode, merchantCode })).status).toBe(200);
}

/** A server's job log, kept: what an operator reads. */
function recordingLog() {
  const lines: { level: string; msg: string }[] = [];
  const log: JobLog = {
    error: (_obj, msg) => lines.push({ level: 'error', msg }),
    warn: (_obj, msg) => lines.push({ level: 'warn', msg }),
    info: (_obj, msg) => lines.push({ level: 'info', msg }),
    debug: (_obj, msg) => lines.push({ level: 'debug', msg }),
  };
  const count = (msg: string) => lines.filter((l) => l.msg === msg).length;
  return { lines, log, count };
}
const RUNS_IT = 'This server runs the settlement job now';
const ANOTHER_RUNS_IT = 'the settlement job runs on another server';

/** A server on the test's database: its runner locks and its settlement job (every minute, as a server's). */
function server() {
  const record = recordingLog();
  const runners = new RunnerLocks({
    db: ctx.database.db,
    databaseUrl: ctx.config.databaseUrl,
    log: record.log,
  });
  const stopJob = startSettlementJob(ctx.database.db, ctx.ledgerKey, {
    runners,
    delayHours: 0,
    intervalMs: 60_000,
    log: record.log,
  });
  return {
    ...record,
    runners,
    async stop() {
      await stopJob();
      await runners.close();
    },
  };
}

beforeAll(async () => {
  ctx = await makeTestContext();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  retailer = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
  ids = await idsByMobile(ctx.app, admin);
  savingId = await productIdOf(ctx.app, admin);
});
afterAll(() => ctx.close());

describe('the settlement job across servers', () => {
  it('runs on one server, which keeps it while it lives, and on another within 30 seconds once it is gone', async () => {
    const a = server();
    // A takes the job and runs it at once.
    await vi.waitFor(() => expect(a.count(RUNS_IT)).toBe(1), { timeout: 20_000 });
    const b = server();
    try {
      await confirmedSale();
      // B asks again and again while A lives, and never runs it: the share stays in clearing (A's next run is a
      // minute away).
      await vi.waitFor(() => expect(b.count(ANOTHER_RUNS_IT)).toBeGreaterThanOrEqual(3), {
        timeout: 45_000,
        interval: 200,
      });
      expect(b.count(RUNS_IT)).toBe(0);
      expect(await wallet()).toEqual({ balance: 0, clearingBalance: 100 });

      // A goes (its lock with it); B takes the job up and runs it at once.
      const gone = Date.now();
      await a.stop();
      await vi.waitFor(async () => expect(await wallet()).toEqual({ balance: 100, clearingBalance: 0 }), {
        timeout: 30_000,
        interval: 200,
      });
      expect(Date.now() - gone).toBeLessThan(30_000);
      expect(b.count(RUNS_IT)).toBe(1);
      for (const log of [a, b])
        expect(log.lines.filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
    } finally {
      await a.stop();
      await b.stop();
    }
  }, 90_000);

  it('is never run twice at once by one server: a run asked for while its job runs finds the job taken', async () => {
    await confirmedSale();
    const a = server();
    try {
      await vi.waitFor(async () => expect(await wallet()).toEqual({ balance: 200, clearingBalance: 0 }), {
        timeout: 20_000,
      });
      // A holds the job's lock between runs: a run by hand on A, or on any server, finds it taken. (On the
      // embedded database a second lock in the one session would be granted: the process refuses it itself.)
      const other = new RunnerLocks({ db: ctx.database.db, databaseUrl: ctx.config.databaseUrl, log: a.log });
      try {
        expect(
          await runSettlementJob(ctx.database.db, ctx.ledgerKey, a.runners, { delayHours: 0 }),
        ).toBeNull();
        expect(await runSettlementJob(ctx.database.db, ctx.ledgerKey, other, { delayHours: 0 })).toBeNull();
      } finally {
        await other.close();
      }
    } finally {
      await a.stop();
    }
    // Once A has stopped, a run finds the job free.
    expect(
      await runSettlementJob(ctx.database.db, ctx.ledgerKey, ctx.app.runners, { delayHours: 0 }),
    ).toEqual({
      settled: 0,
      amount: 0,
      users: 0,
    });
  });
});
