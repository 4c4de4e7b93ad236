import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type JobLog,
  keepLease,
  startSettlementJob,
  takeLease,
} from '../../src/server/modules/ledger/settlement';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext } from './helpers';
import { deliver, idsByMobile, sell } from './selling';

// Several servers share the settlement job through a lease in the database (modules/ledger/settlement.ts). A
// server killed while holding it stops renewing it; another must take over within 30 seconds, and never while the
// holder lives and renews it.

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

/** A job log that keeps what it was told. */
function recordingLog() {
  const lines: { level: string; msg: string }[] = [];
  const log: JobLog = {
    error: (_obj, msg) => lines.push({ level: 'error', msg }),
    warn: (_obj, msg) => lines.push({ level: 'warn', msg }),
    debug: (_obj, msg) => lines.push({ level: 'debug', msg }),
  };
  const waits = () => lines.filter((l) => l.msg.startsWith('settlement lease held by another server'));
  return { lines, log, waits };
}

const lease = async () =>
  (
    await ctx.database.pool.query(
      `select holder, expires_at > now() as held from job_leases where name = 'settlement'`,
    )
  ).rows[0];
const lastRun = async () =>
  (await ctx.database.pool.query(`select last_run_at::text as at from job_leases where name = 'settlement'`))
    .rows[0]?.at;

beforeAll(async () => {
  ctx = await makeTestContext();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  retailer = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
  ids = await idsByMobile(ctx.app, admin);
  const list = await call(ctx.app, 'GET', 'products/fetch', {
    token: admin,
    query: { searchText: 'Saving' },
  });
  savingId = list.body.result.products[0]._id;
});
afterAll(() => ctx.close());

describe('the settlement lease across servers', () => {
  it('is not taken from a live holder that keeps renewing it', async () => {
    await confirmedSale();
    expect(await wallet()).toEqual({ balance: 0, clearingBalance: 100 });
    // Server A takes the lease and renews it, as it does while a long run lasts.
    expect(await takeLease(ctx.database.db, 'server-a')).toEqual({ taken: true });
    const stopRenewing = keepLease(ctx.database.db, 'server-a');
    const b = recordingLog();
    const stopB = startSettlementJob(ctx.database.db, ctx.ledgerKey, {
      delayHours: 0,
      intervalMs: 60_000,
      log: b.log,
      holder: 'server-b',
    });
    try {
      // B found the lease held and asked again when the term it saw ran out: A had renewed it by then.
      await vi.waitFor(() => expect(b.waits().length).toBeGreaterThanOrEqual(2), {
        timeout: 45_000,
        interval: 200,
      });
      expect(await lease()).toEqual({ holder: 'server-a', held: true });
      expect(await wallet()).toEqual({ balance: 0, clearingBalance: 100 });
      expect(b.lines.filter((l) => l.level !== 'debug')).toEqual([]);
    } finally {
      await stopB();
      await stopRenewing();
    }
  }, 60_000);

  it('is taken over within 30 seconds from a holder that died, and the due commission moves', async () => {
    expect(await wallet()).toEqual({ balance: 0, clearingBalance: 100 });
    // Server A takes the lease and is killed: it never renews it, nor hands it back.
    expect(await takeLease(ctx.database.db, 'server-a')).toEqual({ taken: true });
    const died = Date.now();
    const b = recordingLog();
    const stopB = startSettlementJob(ctx.database.db, ctx.ledgerKey, {
      delayHours: 0,
      intervalMs: 60_000,
      log: b.log,
      holder: 'server-b',
    });
    try {
      // What the retailer sees: the share available. B's next interval would have been a minute away.
      await vi.waitFor(async () => expect(await wallet()).toEqual({ balance: 100, clearingBalance: 0 }), {
        timeout: 30_000,
        interval: 200,
      });
      expect(Date.now() - died).toBeLessThan(30_000);
      expect(b.lines.filter((l) => l.level !== 'debug')).toEqual([]);
    } finally {
      await stopB();
    }
    // B handed the lease back when its run ended.
    expect(await lease()).toEqual({ holder: 'server-b', held: false });
  }, 45_000);

  it('is taken over within 30 seconds from a holder that died while no other server waited for it', async () => {
    const b = recordingLog();
    const stopB = startSettlementJob(ctx.database.db, ctx.ledgerKey, {
      delayHours: 0,
      intervalMs: 60_000,
      log: b.log,
      holder: 'server-b',
    });
    try {
      // B's first run, with nothing due, ends and hands the lease back: its next interval is a minute away.
      const before = await lastRun();
      await vi.waitFor(async () => expect(await lastRun()).not.toBe(before), {
        timeout: 30_000,
        interval: 200,
      });
      // Then server A takes the lease and is killed, and a commission falls due.
      expect(await takeLease(ctx.database.db, 'server-a')).toEqual({ taken: true });
      const died = Date.now();
      await confirmedSale();
      expect(await wallet()).toEqual({ balance: 100, clearingBalance: 100 });
      await vi.waitFor(async () => expect(await wallet()).toEqual({ balance: 200, clearingBalance: 0 }), {
        timeout: 30_000,
        interval: 200,
      });
      expect(Date.now() - died).toBeLessThan(30_000);
      // B never found the lease held (it ran before A took it): it found A's lease abandoned.
      expect(b.waits()).toEqual([]);
      expect(b.lines.filter((l) => l.level !== 'debug')).toEqual([]);
    } finally {
      await stopB();
    }
  }, 75_000);
});
