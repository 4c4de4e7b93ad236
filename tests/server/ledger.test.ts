import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RunnerLocks } from '../../src/server/db/runner-lock';
import { runSettlementJob } from '../../src/server/modules/ledger/settlement';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext } from './helpers';
import { deliver, idsByMobile, sell } from './selling';

let ctx: TestContext;
let admin: string;
let employee: string;
let md1: string;
let distributor1: string;
let retailer1: string;
let retailer3: string;
let ids: Record<string, string>;
let savingId: string;

const wallet = async (token: string) =>
  (await call(ctx.app, 'GET', 'wallet/fetch', { token })).body.result.wallet;
const adminCall = (method: 'GET' | 'POST', path: string, body?: unknown, query?: Record<string, string>) =>
  call(ctx.app, method, path, { token: admin, body, query });

/** A confirmed ₹500 saving-account sale by retailer 1 (its share: ₹100). */
async function confirmedSale(token = retailer1, customer = '9400000001') {
  const { utmCode, merchantCode, recorded } = await sell(ctx.app, token, {
    customerId: ids[customer],
    productId: savingId,
  });
  const res = await deliver(ctx.app, { event: 'account.opened', utmCode, merchantCode });
  expect(res.status).toBe(200);
  return { utmCode, merchantCode, id: recorded.body.result._id as string };
}

beforeAll(async () => {
  ctx = await makeTestContext();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  employee = (await login(ctx.app, '9000000001', DEMO_PASSWORD)).token;
  md1 = (await login(ctx.app, '9100000001', DEMO_PASSWORD)).token;
  distributor1 = (await login(ctx.app, '9200000001', DEMO_PASSWORD)).token;
  retailer1 = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
  retailer3 = (await login(ctx.app, '9300000003', DEMO_PASSWORD)).token;
  ids = await idsByMobile(ctx.app, admin);
  const list = await adminCall('GET', 'products/fetch', undefined, { searchText: 'Saving' });
  savingId = list.body.result.products[0]._id;
});
afterAll(() => ctx.close());

describe('settlement', () => {
  it('moves one user’s clearing balance to available on ADMIN’s word, as a pair of SETTLED postings', async () => {
    await confirmedSale();
    const before = await wallet(retailer1);
    expect(before.clearingBalance).toBe(100);
    const res = await adminCall('POST', 'wallet/settle', { userId: ids['9300000001'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: { settled: 1, amount: 100, users: 1 },
      message: '1 commission settled',
    });
    expect(await wallet(retailer1)).toEqual({ balance: 100, clearingBalance: 0 });
    // Nobody else moved.
    expect((await wallet(distributor1)).clearingBalance).toBe(75);
    const postings = (await call(ctx.app, 'GET', 'wallet/fetch', { token: retailer1 })).body.result
      .transactions;
    expect(
      postings
        .slice(0, 2)
        .map((p: { transactionType: string; balanceType: string; status: string }) => [
          p.transactionType,
          p.balanceType,
          p.status,
        ]),
    ).toEqual(
      expect.arrayContaining([
        ['DEBIT', 'CLEARING', 'SETTLED'],
        ['CREDIT', 'AVAILABLE', 'SETTLED'],
      ]),
    );
    const again = await adminCall('POST', 'wallet/settle', { userId: ids['9300000001'] });
    expect(again.body).toEqual({
      result: { settled: 0, amount: 0, users: 0 },
      message: '0 commissions settled',
    });
  });

  it('settles everyone at once only when asked with all: true', async () => {
    const res = await adminCall('POST', 'wallet/settle', { all: true });
    expect(res.status).toBe(200);
    expect(res.body.result.settled).toBeGreaterThanOrEqual(4);
    expect(res.body.message).toBe(`${res.body.result.settled} commissions settled`);
    expect(await wallet(distributor1)).toEqual({ balance: 75, clearingBalance: 0 });
  });

  it('refuses an unknown user and a bad id', async () => {
    const missing = await adminCall('POST', 'wallet/settle', { userId: randomUUID() });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('User not found');
    const bad = await adminCall('POST', 'wallet/settle', { userId: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ msg: 'Invalid user id', param: 'userId' }]);
  });

  it('never reads an empty, null or malformed userId, or no body at all, as everyone', async () => {
    await confirmedSale(retailer3, '9400000007');
    const before = await wallet(retailer3);
    expect(before.clearingBalance).toBeGreaterThan(0);
    const whom = 'Name one user (userId) to settle, or send all: true to settle everyone';
    const cases: [unknown, { msg: string; param: string }][] = [
      [{ userId: '' }, { msg: 'Invalid user id', param: 'userId' }],
      [{ userId: null }, { msg: 'Invalid user id', param: 'userId' }],
      [{ userId: 42 }, { msg: 'Invalid user id', param: 'userId' }],
      [{ userId: ' ' }, { msg: 'Invalid user id', param: 'userId' }],
      [{}, { msg: whom, param: 'userId' }],
      [{ all: false }, { msg: 'all must be true to settle everyone', param: 'all' }],
      [{ all: 'true' }, { msg: 'all must be true to settle everyone', param: 'all' }],
      [
        { all: true, userId: ids['9300000003'] },
        { msg: whom, param: 'userId' },
      ],
    ];
    for (const [body, error] of cases) {
      const res = await adminCall('POST', 'wallet/settle', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toEqual({ message: 'Invalid data!', errors: [error] });
    }
    // Nothing moved.
    expect(await wallet(retailer3)).toEqual(before);
  });

  it('runs by itself for sales older than the delay, one server at a time', async () => {
    const clearing = (await wallet(retailer3)).clearingBalance;
    expect(clearing).toBe(100);
    const opts = (hoursAhead: number) => ({
      delayHours: 24,
      now: new Date(Date.now() + hoursAhead * 3_600_000),
    });
    // Not due yet an hour later.
    const early = await runSettlementJob(ctx.database.db, ctx.ledgerKey, ctx.app.runners, opts(1));
    expect(early).toMatchObject({ settled: 0 });
    expect((await wallet(retailer3)).clearingBalance).toBe(100);
    // Ten servers a day later, at once (on PostgreSQL ten sessions; on the embedded engine one, shared): one takes
    // the job's lock, the others find it taken.
    const quiet = { info() {}, warn() {} };
    const servers = Array.from(
      { length: 10 },
      () => new RunnerLocks({ db: ctx.database.db, databaseUrl: ctx.config.databaseUrl, log: quiet }),
    );
    // The run that takes it waits at retailer 3's wallet, locked here, until the other nine have answered.
    const wallets = await ctx.database.pool.connect();
    try {
      await wallets.query('begin');
      await wallets.query('select 1 from wallets where user_id = $1 for update', [ids['9300000003']]);
      const answered: unknown[] = [];
      const runs = servers.map((runners) =>
        runSettlementJob(ctx.database.db, ctx.ledgerKey, runners, opts(25)).then((result) => {
          answered.push(result);
          return result;
        }),
      );
      await vi.waitFor(() => expect(answered).toEqual(Array(9).fill(null)), { timeout: 20_000 });
      await wallets.query('commit');
      const ran = (await Promise.all(runs)).filter((r) => r !== null);
      expect(ran).toHaveLength(1);
      expect(ran[0]?.settled).toBeGreaterThanOrEqual(5);
    } finally {
      await wallets.query('rollback').catch(() => {});
      wallets.release();
      await Promise.all(servers.map((runners) => runners.close()));
    }
    expect(await wallet(retailer3)).toEqual({ balance: 100, clearingBalance: 0 });
  });
});

describe('reversal after settlement', () => {
  it('debits the available balance of a settled share', async () => {
    const sale = await confirmedSale();
    await adminCall('POST', 'wallet/settle', { all: true });
    const before = await wallet(retailer1);
    const res = await deliver(ctx.app, {
      event: 'account.reversed',
      utmCode: sale.utmCode,
      merchantCode: sale.merchantCode,
    });
    expect(res.status).toBe(200);
    expect(await wallet(retailer1)).toEqual({ balance: before.balance - 100, clearingBalance: 0 });
    const reversal = (await call(ctx.app, 'GET', 'wallet/fetch', { token: retailer1 })).body.result
      .transactions[0];
    expect(reversal).toMatchObject({
      kind: 'REVERSAL',
      transactionType: 'DEBIT',
      balanceType: 'AVAILABLE',
      amount: 100,
    });
  });

  it('after a payout posts the reversal and leaves the wallet owing, and the next commissions pay it back first', async () => {
    const sale = await confirmedSale();
    await adminCall('POST', 'wallet/settle', { userId: ids['9300000001'] });
    const available = (await wallet(retailer1)).balance;
    const paid = await adminCall('POST', 'wallet/payout', {
      userId: ids['9300000001'],
      amount: available,
      reference: `ALL-${randomUUID()}`,
    });
    expect(paid.status).toBe(200);
    const res = await deliver(ctx.app, {
      event: 'account.reversed',
      utmCode: sale.utmCode,
      merchantCode: sale.merchantCode,
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ status: 'REVERSED' });
    const after = await adminCall('GET', 'bought_products/fetch', undefined, { _id: sale.id });
    expect(after.body.result.boughtProducts[0].status).toBe('REVERSED');
    // The retailer owes its ₹100 share: a negative available balance, recorded by the reversal.
    expect(await wallet(retailer1)).toEqual({ balance: -100, clearingBalance: 0 });
    const [reversal] = (await call(ctx.app, 'GET', 'wallet/fetch', { token: retailer1 })).body.result
      .transactions;
    expect(reversal).toMatchObject({
      kind: 'REVERSAL',
      balanceType: 'AVAILABLE',
      amount: 100,
      balance: -100,
    });
    let proof = await adminCall('GET', 'ledger/reconcile');
    expect(proof.body.result).toMatchObject({ ok: true, breaks: [] });
    expect(proof.body.result.totals.owed).toBe(100);

    // Nothing can be paid out while it owes.
    const payout = await adminCall('POST', 'wallet/payout', {
      userId: ids['9300000001'],
      amount: 1,
      reference: `OWING-${randomUUID()}`,
    });
    expect(payout.status).toBe(400);
    expect(payout.body.errors).toEqual([
      { msg: 'Payout exceeds the available balance of -₹100.00', param: 'amount' },
    ]);

    // The next commission, once settled, pays the debt back before anything is available.
    await confirmedSale();
    expect(await wallet(retailer1)).toEqual({ balance: -100, clearingBalance: 100 });
    await adminCall('POST', 'wallet/settle', { userId: ids['9300000001'] });
    expect(await wallet(retailer1)).toEqual({ balance: 0, clearingBalance: 0 });
    await confirmedSale();
    await adminCall('POST', 'wallet/settle', { userId: ids['9300000001'] });
    expect(await wallet(retailer1)).toEqual({ balance: 100, clearingBalance: 0 });
    proof = await adminCall('GET', 'ledger/reconcile');
    expect(proof.body.result).toMatchObject({ ok: true, breaks: [] });
    expect(proof.body.result.totals.owed).toBe(0);
  });
});

describe('payouts', () => {
  it('debits the available balance, never below zero, and a reference replays its first answer', async () => {
    await confirmedSale();
    await adminCall('POST', 'wallet/settle', { userId: ids['9300000001'] });
    const before = await wallet(retailer1);
    expect(before.balance).toBeGreaterThanOrEqual(100);

    const tooMuch = await adminCall('POST', 'wallet/payout', {
      userId: ids['9300000001'],
      amount: before.balance + 0.01,
      reference: 'BIG-1',
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.errors).toEqual([
      { msg: `Payout exceeds the available balance of ₹${before.balance.toFixed(2)}`, param: 'amount' },
    ]);

    const reference = `NEFT-${randomUUID()}`;
    const paid = await adminCall('POST', 'wallet/payout', {
      userId: ids['9300000001'],
      amount: '60.50',
      reference,
    });
    expect(paid.status).toBe(200);
    expect(paid.body.message).toBe('Payout recorded');
    expect(paid.body.result).toMatchObject({
      kind: 'PAYOUT',
      transactionType: 'DEBIT',
      balanceType: 'AVAILABLE',
      status: 'PAID',
      amount: 60.5,
      reference,
      balance: before.balance - 60.5,
      userId: { _id: ids['9300000001'], name: 'Ganesh Mobile Store' },
    });
    const replay = await adminCall('POST', 'wallet/payout', {
      userId: ids['9300000001'],
      amount: 60.5,
      reference,
    });
    expect(replay.status).toBe(200);
    expect(replay.body.message).toBe('Payout already recorded under this reference');
    expect(replay.body.result._id).toBe(paid.body.result._id);
    expect((await wallet(retailer1)).balance).toBe(before.balance - 60.5);

    const reused = await adminCall('POST', 'wallet/payout', {
      userId: ids['9300000001'],
      amount: 1,
      reference,
    });
    expect(reused.status).toBe(409);
    expect(reused.body.message).toBe('This reference was already used for another payout');
  });

  it('pays a reference out once when it is replayed concurrently', async () => {
    await confirmedSale();
    await adminCall('POST', 'wallet/settle', { userId: ids['9300000001'] });
    const before = await wallet(retailer1);
    const reference = `RACE-${randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        adminCall('POST', 'wallet/payout', { userId: ids['9300000001'], amount: 1, reference }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.body.result._id)).size).toBe(1);
    expect((await wallet(retailer1)).balance).toBe(before.balance - 1);
  });

  it('reads a reference retyped in another case or with spaces around it as the same payout', async () => {
    await confirmedSale();
    await adminCall('POST', 'wallet/settle', { userId: ids['9300000001'] });
    const before = await wallet(retailer1);
    const reference = `Neft-${randomUUID()}`;
    const paid = await adminCall('POST', 'wallet/payout', {
      userId: ids['9300000001'],
      amount: 2,
      reference,
    });
    expect(paid.status).toBe(200);
    for (const retyped of [reference.toUpperCase(), `  ${reference.toLowerCase()}  `]) {
      const replay = await adminCall('POST', 'wallet/payout', {
        userId: ids['9300000001'],
        amount: '2.00',
        reference: retyped,
      });
      expect(replay.status, retyped).toBe(200);
      expect(replay.body.message).toBe('Payout already recorded under this reference');
      expect(replay.body.result).toMatchObject({ _id: paid.body.result._id, reference });
      const other = await adminCall('POST', 'wallet/payout', {
        userId: ids['9300000001'],
        amount: 3,
        reference: retyped,
      });
      expect(other.status, retyped).toBe(409);
      expect(other.body.message).toBe('This reference was already used for another payout');
    }
    expect((await wallet(retailer1)).balance).toBe(before.balance - 2);
    // Spellings of one reference at once, for two users: one payout, the others replay it or are refused.
    const distributorBefore = (await wallet(distributor1)).balance;
    const race = `Race-${randomUUID()}`;
    const answers = await Promise.all(
      [race, race.toUpperCase(), ` ${race.toLowerCase()}`, race].map((r, i) =>
        adminCall('POST', 'wallet/payout', {
          userId: ids[i % 2 === 0 ? '9300000001' : '9200000001'],
          amount: 1,
          reference: r,
        }),
      ),
    );
    expect(answers.filter((a) => a.body.message === 'Payout recorded')).toHaveLength(1);
    for (const a of answers) expect([200, 409]).toContain(a.status);
    const debited =
      before.balance -
      2 -
      (await wallet(retailer1)).balance +
      distributorBefore -
      (await wallet(distributor1)).balance;
    expect(debited).toBe(1);
  });

  it('refuses bad input with its message', async () => {
    const cases: [Record<string, unknown>, number, { msg: string; param: string }[] | string][] = [
      [
        {},
        400,
        [
          { msg: 'This field is required', param: 'userId' },
          { msg: 'This field is required', param: 'amount' },
          { msg: 'A payout reference is required', param: 'reference' },
        ],
      ],
      [
        { userId: ids['9300000001'], amount: 0, reference: 'R' },
        400,
        [{ msg: 'Amount must be greater than 0 with at most 2 decimals', param: 'amount' }],
      ],
      [
        { userId: ids['9300000001'], amount: '1.005', reference: 'R' },
        400,
        [{ msg: 'Amount must be greater than 0 with at most 2 decimals', param: 'amount' }],
      ],
      [
        { userId: ids['9300000001'], amount: -5, reference: 'R' },
        400,
        [{ msg: 'Amount must be greater than 0 with at most 2 decimals', param: 'amount' }],
      ],
      [
        { userId: ids['9300000001'], amount: 1, reference: 'x'.repeat(101) },
        400,
        [{ msg: 'A payout reference is at most 100 characters', param: 'reference' }],
      ],
      [{ userId: randomUUID(), amount: 1, reference: 'R' }, 404, 'User not found'],
    ];
    for (const [body, status, expected] of cases) {
      const res = await adminCall('POST', 'wallet/payout', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (typeof expected === 'string') expect(res.body.message).toBe(expected);
      else expect(res.body.errors).toEqual(expected);
    }
  });
});

describe('authority', () => {
  it('refuses settle, payout, adjustments, reconcile and the transaction list to everyone but staff', async () => {
    // An employee may make payouts and adjustments, always for approval (approvals.test.ts).
    for (const token of [employee, md1, distributor1, retailer1]) {
      for (const [method, path] of [
        ['POST', 'wallet/settle'],
        ...(token === employee
          ? []
          : ([
              ['POST', 'wallet/payout'],
              ['POST', 'wallet/adjust'],
            ] as const)),
        ['GET', 'ledger/reconcile'],
        ['GET', 'transactions/fetch'],
      ] as const) {
        const res = await call(ctx.app, method, path, { token, body: method === 'POST' ? {} : undefined });
        expect(res.status, `${path}`).toBe(403);
        expect(res.body.message).toBe('You do not have permission to do this');
      }
    }
  });

  it('shows a tier user its own wallet only, whatever the query says', async () => {
    const mine = await call(ctx.app, 'GET', 'wallet/fetch', {
      token: distributor1,
      query: { userId: ids['9300000001'], limit: '100' },
    });
    expect(mine.status).toBe(200);
    for (const p of mine.body.result.transactions) expect(p.userId._id).toBe(ids['9200000001']);
    expect(mine.body.result.totalCounts).toBe(mine.body.result.transactions.length);
  });
});

describe('transactions/fetch', () => {
  it('populates the user, shows rupees and the balances after each posting, and filters as the seed asks', async () => {
    const sale = await confirmedSale();
    const bySale = await adminCall('GET', 'transactions/fetch', undefined, { boughtProductId: sale.id });
    expect(bySale.status).toBe(200);
    expect(bySale.body.result.totalCounts).toBe(5);
    const retailerRow = bySale.body.result.transactions.find(
      (t: { userId: { _id: string } }) => t.userId._id === ids['9300000001'],
    );
    expect(retailerRow).toMatchObject({
      userId: {
        name: 'Ganesh Mobile Store',
        email: { address: '9300000001@demo.tierdesk.in' },
        mobile: { number: '9300000001' },
        type: 4,
      },
      amount: 100,
      transactionType: 'CREDIT',
      status: 'CLEARING',
      boughtProductId: sale.id,
    });
    expect(retailerRow.clearingBalance).toBe((await wallet(retailer1)).clearingBalance);

    const retailers = await adminCall('GET', 'transactions/fetch', undefined, {
      userType: '4',
      limit: '100',
    });
    expect(
      retailers.body.result.transactions.every((t: { userId: { type: number } }) => t.userId.type === 4),
    ).toBe(true);
    const one = await adminCall('GET', 'transactions/fetch', undefined, {
      userId: ids['9200000001'],
      transactionType: 'CREDIT',
    });
    expect(one.body.result.transactions.length).toBeGreaterThan(0);
    expect(
      one.body.result.transactions.every(
        (t: { userId: { _id: string }; transactionType: string }) =>
          t.userId._id === ids['9200000001'] && t.transactionType === 'CREDIT',
      ),
    ).toBe(true);
    const page = await adminCall('GET', 'transactions/fetch', undefined, { page: '1', limit: '10' });
    expect(page.body.result.transactions).toHaveLength(10);

    const bad = await adminCall('GET', 'transactions/fetch', undefined, {
      transactionType: 'REFUND',
      userType: '9',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        { msg: 'transactionType must be CREDIT or DEBIT', param: 'transactionType' },
        { msg: 'userType must be a user type number', param: 'userType' },
      ]),
    );
  });
});

describe('the dashboard’s money', () => {
  it('sums commissions today, this month and in clearing over the caller’s network', async () => {
    const adminBefore = (await adminCall('GET', 'report/commissions')).body.result.commissions;
    const retailerBefore = (await call(ctx.app, 'GET', 'report/commissions', { token: retailer3 })).body
      .result.commissions;
    await confirmedSale();
    const adminAfter = (await adminCall('GET', 'report/commissions')).body.result.commissions;
    expect(adminAfter.today).toBeCloseTo(adminBefore.today + 500, 2);
    expect(adminAfter.month).toBeCloseTo(adminBefore.month + 500, 2);
    expect(adminAfter.clearing).toBeCloseTo(adminBefore.clearing + 500, 2);
    // Retailer 3's network had no part in that sale.
    const retailerAfter = (await call(ctx.app, 'GET', 'report/commissions', { token: retailer3 })).body.result
      .commissions;
    expect(retailerAfter).toEqual(retailerBefore);
    // Retailer 1's network: itself and its three customers.
    const mine = (await call(ctx.app, 'GET', 'report/commissions', { token: retailer1 })).body.result
      .commissions;
    let clearing = 0;
    for (const mobile of ['9300000001', '9400000001', '9400000002', '9400000003']) {
      const user = await adminCall('GET', 'account/fetch', undefined, { _id: ids[mobile] });
      clearing += user.body.result.users[0].wallet.clearingBalance;
    }
    expect(mine.clearing).toBeCloseTo(clearing, 2);
    expect(mine.clearing).toBeGreaterThan(0);
  });
});

describe('reconciliation', () => {
  it('holds after all of the above, and refuses to let a posting be changed or deleted', async () => {
    const report = await adminCall('GET', 'ledger/reconcile');
    expect(report.status).toBe(200);
    expect(report.body.result).toMatchObject({ ok: true, breaks: [] });
    expect(report.body.result.postings).toBeGreaterThan(20);
    await expect(
      ctx.database.pool.query(`update postings set amount_paise = amount_paise + 1`),
    ).rejects.toThrow(/postings are immutable/);
    await expect(ctx.database.pool.query(`delete from postings`)).rejects.toThrow(/postings are immutable/);
  });

  it('finds a posting changed behind the ledger’s back', async () => {
    const pool = ctx.database.pool;
    await pool.query('alter table postings disable trigger postings_no_update');
    try {
      await pool.query(
        `update postings set amount_paise = amount_paise + 100, balance_after_paise = balance_after_paise
         where id = (select id from postings where kind = 'COMMISSION' order by created_at limit 1)`,
      );
      const report = (await adminCall('GET', 'ledger/reconcile')).body.result;
      expect(report.ok).toBe(false);
      expect(report.breaks.map((b: { check: string }) => b.check)).toEqual(
        expect.arrayContaining(['sale-sum', 'wallet-sum', 'chain']),
      );
      expect(report.breaks.find((b: { check: string }) => b.check === 'chain').detail).toMatch(
        /records balances that do not follow from the ones before/,
      );
    } finally {
      await pool.query(
        `update postings set amount_paise = amount_paise - 100
         where id = (select id from postings where kind = 'COMMISSION' order by created_at limit 1)`,
      );
      await pool.query('alter table postings enable trigger postings_no_update');
    }
    expect((await adminCall('GET', 'ledger/reconcile')).body.result.ok).toBe(true);
  });

  it('finds a change that keeps every sum right, by the posting’s seal', async () => {
    const pool = ctx.database.pool;
    const target = `(select id from postings where kind = 'PAYOUT' order by created_at limit 1)`;
    const original = (await pool.query(`select reference from postings where id = ${target}`)).rows[0]
      .reference;
    await pool.query('alter table postings disable trigger postings_no_update');
    try {
      await pool.query(`update postings set reference = 'FORGED' where id = ${target}`);
      const report = (await adminCall('GET', 'ledger/reconcile')).body.result;
      expect(report.ok).toBe(false);
      expect(report.breaks).toEqual([
        { check: 'chain', detail: expect.stringMatching(/was changed \(its seal does not verify\)$/) },
      ]);
    } finally {
      await pool.query(`update postings set reference = $1 where id = ${target}`, [original]);
      await pool.query('alter table postings enable trigger postings_no_update');
    }
    expect((await adminCall('GET', 'ledger/reconcile')).body.result.ok).toBe(true);
  });
});

describe('a wallet’s statement', () => {
  it('runs newest first in the wallet’s own order: each row’s balances are the row below’s plus or minus its amount', async () => {
    for (let i = 0; i < 3; i++) await confirmedSale(retailer3, '9400000007');
    // Settling writes two postings for each commission in one transaction: they share their time.
    const settled = await adminCall('POST', 'wallet/settle', { userId: ids['9300000003'] });
    expect(settled.status).toBe(200);
    expect(settled.body.result.settled).toBe(3);
    const res = await call(ctx.app, 'GET', 'wallet/fetch', { token: retailer3, query: { limit: '100' } });
    expect(res.status).toBe(200);
    const { wallet: card, transactions } = res.body.result as {
      wallet: { balance: number; clearingBalance: number };
      transactions: {
        amount: number;
        transactionType: 'CREDIT' | 'DEBIT';
        balanceType: 'AVAILABLE' | 'CLEARING';
        balance: number;
        clearingBalance: number;
        createdAt: string;
      }[];
    };
    expect(transactions.length).toBeGreaterThanOrEqual(9);
    expect([transactions[0].balance, transactions[0].clearingBalance]).toEqual([
      card.balance,
      card.clearingBalance,
    ]);
    const paise = (rupees: number) => Math.round(rupees * 100);
    for (let i = 0; i + 1 < transactions.length; i++) {
      const [newer, older] = [transactions[i], transactions[i + 1]];
      const delta = (newer.transactionType === 'CREDIT' ? 1 : -1) * paise(newer.amount);
      expect(newer.createdAt >= older.createdAt).toBe(true);
      expect([paise(newer.balance), paise(newer.clearingBalance)]).toEqual([
        paise(older.balance) + (newer.balanceType === 'AVAILABLE' ? delta : 0),
        paise(older.clearingBalance) + (newer.balanceType === 'CLEARING' ? delta : 0),
      ]);
    }
  });
});
