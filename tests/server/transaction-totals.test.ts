// The money in and out of a postings list's whole filter (issues 43, 53): `transactions/fetch` and `wallet/fetch`
// answer `result.totals`, the credits and debits but a settlement's (which moves clearing to available), read from
// the day totals the ledger keeps with every posting. Checked here against a straight sum over the postings (the
// oracle, written apart from the server's SQL), for filters with and without days, across the midnight of the
// business time zone (Asia/Kolkata); a tampered counter is reported by reconcile; concurrent writers keep the
// counters exact. Runs on PGlite and, with DATABASE_URL, on PostgreSQL.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/server/db/transaction';
import { type PostingDraft, post } from '../../src/server/modules/ledger/ledger';
import { reconcile } from '../../src/server/modules/ledger/reconcile';
import { paiseToRupees } from '../../src/shared/money';
import { call, DEMO_PASSWORD, login, makeScaledContext, type TestContext } from './helpers';

let ctx: TestContext;
let admin = '';
let retailerToken = '';
const ids = { retailer: '', distributor: '', sale: '' };

const rows = async (text: string, values: unknown[] = []) =>
  (await ctx.database.pool.query(text, values)).rows as Record<string, unknown>[];

/** The days straddled here: 15 January 2025 ends at 18:30 UTC in India. */
const DAY = '2025-01-15';
const NEXT = '2025-01-16';
const LAST_OF_DAY = new Date('2025-01-15T18:29:59.999Z');
const FIRST_OF_NEXT = new Date('2025-01-15T18:30:00.000Z');

/** Posts `drafts` at `now` through the ledger, as every money command does. */
const postAt = (now: Date, drafts: PostingDraft[]) =>
  inTransaction(ctx.database.db, (tx) => post(tx, drafts, { ledgerKey: ctx.ledgerKey, now }));

const adjustment = (
  userId: string,
  transactionType: 'CREDIT' | 'DEBIT',
  amountPaise: number,
): PostingDraft => ({
  userId,
  kind: 'ADJUSTMENT',
  transactionType,
  balanceType: 'AVAILABLE',
  status: 'ADJUSTED',
  amountPaise,
});

type Filter = Partial<
  Record<'transactionType' | 'userId' | 'userType' | 'boughtProductId' | 'status', string>
> & {
  from?: string;
  to?: string;
};

/** The last day of `day`'s month (YYYY-MM-DD). */
const monthEnd = (day: string) => {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return new Date(d.getTime() - 86_400_000).toISOString().slice(0, 10);
};

/**
 * The oracle: money in (credits) and out (debits) of the postings a filter matches but settlements, in rupees, summed
 * from the postings.
 */
async function summed(f: Filter) {
  const where: string[] = [];
  const values: unknown[] = [];
  const add = (clause: (n: string) => string, value: unknown) => {
    values.push(value);
    where.push(clause(`$${values.length}`));
  };
  if (f.transactionType) add((n) => `transaction_type = ${n}`, f.transactionType);
  if (f.userId) add((n) => `user_id = ${n}`, f.userId);
  if (f.userType) add((n) => `user_type = ${n}::smallint`, f.userType);
  if (f.boughtProductId) add((n) => `bought_product_id = ${n}`, f.boughtProductId);
  if (f.status) add((n) => `status = ${n}`, f.status);
  if (f.from) add((n) => `(created_at at time zone 'Asia/Kolkata')::date >= ${n}::date`, f.from);
  if (f.to) add((n) => `(created_at at time zone 'Asia/Kolkata')::date <= ${n}::date`, f.to);
  where.push(`kind <> 'SETTLEMENT'`);
  const [row] = await rows(
    `select coalesce(sum(amount_paise) filter (where transaction_type = 'CREDIT'), 0)::text as credits,
        coalesce(sum(amount_paise) filter (where transaction_type = 'DEBIT'), 0)::text as debits
      from postings where ${where.join(' and ')}`,
    values,
  );
  return {
    moneyIn: paiseToRupees(BigInt(String(row.credits))),
    moneyOut: paiseToRupees(BigInt(String(row.debits))),
  };
}

async function totalsOf(path: 'transactions/fetch' | 'wallet/fetch', token: string, f: Filter) {
  const res = await call(ctx.app, 'GET', path, { token, query: { page: '1', limit: '10', ...f } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.totals as { moneyIn: number; moneyOut: number };
}

beforeAll(async () => {
  ctx = await makeScaledContext();
  admin = (await login(ctx.app, ctx.config.adminUsername, ctx.config.adminPassword)).token;
  const [retailer] = await rows(
    `select r.id, r.mobile, r.distributor_id from users r where r.type = 4
      and exists (select 1 from postings p where p.user_id = r.id) order by r.created_at limit 1`,
  );
  ids.retailer = String(retailer.id);
  ids.distributor = String(retailer.distributor_id);
  retailerToken = (await login(ctx.app, String(retailer.mobile), DEMO_PASSWORD)).token;
  const [sale] = await rows(
    `select bought_product_id as id from postings where bought_product_id is not null
      group by 1 order by count(*) desc, 1 limit 1`,
  );
  ids.sale = String(sale.id);
}, 180_000);

afterAll(async () => {
  await ctx?.close();
});

describe('the ledger keeps the day totals with the postings', () => {
  it('reconciles the seeded counters, and reports a tampered one', async () => {
    expect((await reconcile(ctx.database.db, ctx.ledgerKey)).breaks).toEqual([]);
    const [row] = await rows(
      `select to_char(day, 'YYYY-MM-DD') as day, user_type, kind, transaction_type, status, amount_paise::text as amount,
          posting_count::text as n
        from posting_day_totals order by day desc limit 1`,
    );
    const key = [row.day, row.user_type, row.kind, row.transaction_type, row.status];
    const where = 'day = $1 and user_type = $2 and kind = $3 and transaction_type = $4 and status = $5';
    await rows(`update posting_day_totals set amount_paise = amount_paise + 1 where ${where}`, key);
    const monthWhere = `month = date_trunc('month', $1::date)::date and user_type = $2 and kind = $3
      and transaction_type = $4 and status = $5`;
    await rows(`update posting_month_totals set amount_paise = amount_paise - 7 where ${monthWhere}`, key);
    const [walletRow] = await rows(
      `select user_id, day, user_type, kind, transaction_type, status from wallet_day_totals
        order by day desc, user_id, kind, transaction_type, status limit 1`,
    );
    const walletKey = [walletRow.user_id, walletRow.day, walletRow.user_type, walletRow.kind];
    const walletWhere = `user_id = $1 and day = $2 and user_type = $3 and kind = $4 and transaction_type = $5
      and status = $6`;
    walletKey.push(walletRow.transaction_type, walletRow.status);
    await rows(
      `update wallet_day_totals set posting_count = posting_count + 1 where ${walletWhere}`,
      walletKey,
    );
    try {
      const report = await reconcile(ctx.database.db, ctx.ledgerKey);
      expect(report.ok).toBe(false);
      expect(report.breaks.map((b) => b.check).sort()).toEqual([
        'posting-month-totals',
        'posting-totals',
        'wallet-totals',
      ]);
      const amount = BigInt(String(row.amount));
      const n = String(row.n);
      expect(report.breaks.find((b) => b.check === 'posting-totals')?.detail).toBe(
        `postings of ${row.day} ${row.user_type}/${row.kind}/${row.transaction_type}/${row.status}: ${amount + 1n}/${amount} paise in ${n}/${n} postings (kept/summed)`,
      );
      expect(report.breaks.find((b) => b.check === 'wallet-totals')?.detail).toContain(
        `postings of wallet ${walletRow.user_id} on `,
      );
    } finally {
      await rows(`update posting_day_totals set amount_paise = amount_paise - 1 where ${where}`, key);
      await rows(`update posting_month_totals set amount_paise = amount_paise + 7 where ${monthWhere}`, key);
      await rows(
        `update wallet_day_totals set posting_count = posting_count - 1 where ${walletWhere}`,
        walletKey,
      );
    }
    expect((await reconcile(ctx.database.db, ctx.ledgerKey)).breaks).toEqual([]);
  });

  it('counts a posting in the day of the business time zone it was written in', async () => {
    // A credit in the last millisecond of 15 January in India and one in the first of the 16th (both 15 January
    // in UTC), and a debit on the 16th.
    await postAt(LAST_OF_DAY, [
      adjustment(ids.retailer, 'CREDIT', 12_345),
      adjustment(ids.distributor, 'CREDIT', 7),
    ]);
    await postAt(FIRST_OF_NEXT, [adjustment(ids.retailer, 'CREDIT', 100_000_01)]);
    await postAt(new Date(FIRST_OF_NEXT.getTime() + 1000), [adjustment(ids.retailer, 'DEBIT', 2_50)]);
    const retailerOn = (from: string, to: string) =>
      totalsOf('transactions/fetch', admin, { userId: ids.retailer, from, to });
    expect(await retailerOn(DAY, DAY)).toEqual({ moneyIn: 123.45, moneyOut: 0 });
    expect(await retailerOn(NEXT, NEXT)).toEqual({ moneyIn: 100000.01, moneyOut: 2.5 });
    expect(await retailerOn(DAY, NEXT)).toEqual({ moneyIn: 100123.46, moneyOut: 2.5 });
    expect(await totalsOf('wallet/fetch', retailerToken, { from: DAY, to: DAY })).toEqual({
      moneyIn: 123.45,
      moneyOut: 0,
    });
    expect(
      await totalsOf('wallet/fetch', retailerToken, { from: NEXT, to: NEXT, transactionType: 'DEBIT' }),
    ).toEqual({
      moneyIn: 0,
      moneyOut: 2.5,
    });
    // Everyone's postings on the 15th: the two credits of the 15th, nothing of the 16th.
    expect(await totalsOf('transactions/fetch', admin, { from: DAY, to: DAY })).toEqual({
      moneyIn: 123.52,
      moneyOut: 0,
    });
    // The page holds the postings of the days only, newest first.
    const page = await call(ctx.app, 'GET', 'transactions/fetch', {
      token: admin,
      query: { page: '1', limit: '10', from: NEXT, to: NEXT },
    });
    expect(page.body.result.transactions.map((t: { amount: number }) => t.amount)).toEqual([2.5, 100000.01]);
    expect(page.body.result.totalCounts).toBe(2);
  });

  it('totals a retailer’s month as commissions + adjustments − payouts − TDS − reversals, without settlements (issue 53)', async () => {
    const at = new Date('2031-03-10T06:00:00Z');
    const draft = (
      kind: PostingDraft['kind'],
      transactionType: 'CREDIT' | 'DEBIT',
      balanceType: 'CLEARING' | 'AVAILABLE',
      status: PostingDraft['status'],
      amountPaise: number,
    ): PostingDraft => ({ userId: ids.retailer, kind, transactionType, balanceType, status, amountPaise });
    const walletNow = async () => {
      const res = await call(ctx.app, 'GET', 'wallet/fetch', { token: retailerToken });
      const { balance, clearingBalance } = res.body.result.wallet as {
        balance: number;
        clearingBalance: number;
      };
      return Math.round(balance * 100) + Math.round(clearingBalance * 100);
    };
    const before = await walletNow();
    // Two commissions; the first settled (clearing to available) and taxed; adjustments both ways; a payout; the
    // second commission reversed.
    for (const drafts of [
      [draft('COMMISSION', 'CREDIT', 'CLEARING', 'CLEARING', 1_000_00)],
      [draft('COMMISSION', 'CREDIT', 'CLEARING', 'CLEARING', 200_00)],
      [
        draft('SETTLEMENT', 'DEBIT', 'CLEARING', 'SETTLED', 1_000_00),
        draft('SETTLEMENT', 'CREDIT', 'AVAILABLE', 'SETTLED', 1_000_00),
      ],
      [draft('TDS', 'DEBIT', 'AVAILABLE', 'WITHHELD', 20_00)],
      [adjustment(ids.retailer, 'CREDIT', 50_00), adjustment(ids.retailer, 'DEBIT', 5_00)],
      [draft('PAYOUT', 'DEBIT', 'AVAILABLE', 'PAID', 300_00)],
      [draft('REVERSAL', 'DEBIT', 'CLEARING', 'REVERSED', 200_00)],
    ])
      await postAt(at, drafts);
    const commissions = 1_200;
    const adjustments = 45;
    const payouts = 300;
    const tds = 20;
    const reversals = 200;
    const month = { from: '2031-03-01', to: '2031-03-31' };
    const expected = { moneyIn: 1_250, moneyOut: 525 };
    expect(expected.moneyIn - expected.moneyOut).toBe(commissions + adjustments - payouts - tds - reversals);
    // My Wallet, Transactions filtered to the retailer (its day totals), and everyone's month (the month totals).
    expect(await totalsOf('wallet/fetch', retailerToken, month)).toEqual(expected);
    expect(await totalsOf('transactions/fetch', admin, { ...month, userId: ids.retailer })).toEqual(expected);
    expect(await totalsOf('transactions/fetch', admin, month)).toEqual(expected);
    // What the wallet gained, both balances together: the settlement moved money inside it.
    expect((await walletNow()) - before).toBe((commissions + adjustments - payouts - tds - reversals) * 100);
    // The counters still equal a recount (these hand-made postings point at no sale: only the totals are checked).
    const report = await reconcile(ctx.database.db, ctx.ledgerKey);
    expect(report.breaks.filter((b) => b.check.endsWith('-totals'))).toEqual([]);
  });

  it('equals a straight sum over the postings for every filter, with and without days', async () => {
    const [{ first, last, middle }] = (await rows(
      `select to_char(min(d), 'YYYY-MM-DD') as first, to_char(max(d), 'YYYY-MM-DD') as last,
          to_char(percentile_disc(0.5) within group (order by d), 'YYYY-MM-DD') as middle
        from (select (created_at at time zone 'Asia/Kolkata')::date as d from postings) as days`,
    )) as { first: string; last: string; middle: string }[];
    const filters: Filter[] = [
      {},
      { from: middle },
      { to: middle },
      { from: middle, to: last },
      { from: first, to: middle },
      { from: DAY, to: DAY },
      { userType: '4' },
      { userType: '2', from: middle },
      { transactionType: 'DEBIT', to: middle },
      { status: 'CLEARING', from: first, to: middle },
      { status: 'SETTLED', transactionType: 'CREDIT', userType: '3' },
      { userId: ids.retailer },
      { userId: ids.retailer, from: middle },
      { userId: ids.retailer, transactionType: 'CREDIT', status: 'ADJUSTED' },
      { userId: ids.retailer, userType: '3' },
      { boughtProductId: ids.sale },
      { boughtProductId: ids.sale, transactionType: 'DEBIT' },
      { boughtProductId: ids.sale, userId: ids.retailer, from: middle },
      { from: last, to: last },
      // Whole months, a month's first and last days, and ranges across month ends.
      { from: `${middle.slice(0, 7)}-01` },
      { to: monthEnd(middle) },
      { from: `${middle.slice(0, 7)}-01`, to: monthEnd(middle) },
      { from: `${first.slice(0, 7)}-01`, to: monthEnd(middle), userType: '0' },
      { from: monthEnd(first), to: `${last.slice(0, 7)}-01` },
      { from: '2025-01-01', to: '2025-01-31' },
      { from: '2024-12-31', to: '2025-02-01' },
    ];
    for (const f of filters) {
      const want = await summed(f);
      expect(await totalsOf('transactions/fetch', admin, f), JSON.stringify(f)).toEqual(want);
      if (!f.userId && !f.userType && !f.boughtProductId && !f.status) {
        const mine = { ...f, userId: ids.retailer };
        expect(await totalsOf('wallet/fetch', retailerToken, f), `wallet ${JSON.stringify(f)}`).toEqual(
          await summed(mine),
        );
      }
    }
    // The filters above are not all empty, and settlements are among the postings left out: the check can fail.
    const [settled] = await rows(`select count(*)::int as n from postings where kind = 'SETTLEMENT'`);
    expect(settled.n).toBeGreaterThan(0);
    expect((await summed({})).moneyIn).toBeGreaterThan(0);
    expect((await summed({ from: middle })).moneyIn).toBeGreaterThan(0);
    expect((await summed({ userId: ids.retailer, from: DAY, to: DAY })).moneyIn).toBeGreaterThan(0);
  });

  it('refuses a day that is not one, and From after To, with the field named', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ from: 'yesterday' }, 'from', 'Must be a date (YYYY-MM-DD)'],
      [{ to: '2026-11-01T00:00:00Z' }, 'to', 'Must be a date (YYYY-MM-DD)'],
      [{ from: '2026-02-30' }, 'from', 'No such date in the calendar'],
      [{ to: '1999-12-31' }, 'to', 'Must be a date from 2000-01-01 to 2100-12-31'],
      [{ from: '2026-11-02', to: '2026-11-01' }, 'from', 'from must not be later than to'],
    ];
    for (const path of ['transactions/fetch', 'wallet/fetch'] as const)
      for (const [query, param, message] of cases) {
        const res = await call(ctx.app, 'GET', path, {
          token: path === 'wallet/fetch' ? retailerToken : admin,
          query: { page: '1', limit: '10', ...query },
        });
        expect(res.status, `${path} ${JSON.stringify(query)}`).toBe(400);
        expect(res.body.errors, `${path} ${JSON.stringify(query)}`).toEqual([{ msg: message, param }]);
      }
  });

  it('stays exact under concurrent writers of the same rows', async () => {
    // Writers of the same wallets and day rows at once, each in its own transaction: the counters queue behind the
    // wallet locks, in key order, and lose no update.
    const [{ id: adminId }] = await rows(`select id from users where type = 0 order by created_at limit 1`);
    const others = (await rows(`select id from users where type in (2, 3, 4) order by id limit 6`)).map((r) =>
      String(r.id),
    );
    const writers = Array.from({ length: 24 }, (_, n) =>
      postAt(n % 2 ? FIRST_OF_NEXT : new Date(), [
        adjustment(String(adminId), 'CREDIT', 100 + n),
        adjustment(others[n % others.length], 'CREDIT', 1_00 + n),
        adjustment(others[(n + 3) % others.length], 'CREDIT', 3),
      ]),
    );
    await Promise.all(writers);
    const report = await reconcile(ctx.database.db, ctx.ledgerKey);
    expect(report.breaks.filter((b) => b.check.endsWith('-totals'))).toEqual([]);
    expect(await totalsOf('transactions/fetch', admin, { userId: String(adminId) })).toEqual(
      await summed({ userId: String(adminId) }),
    );
    expect(await totalsOf('transactions/fetch', admin, {})).toEqual(await summed({}));
  });
});
