// The dashboard's charts (issue 55): report/trends, report/top and report/products answer from counter rows kept in
// the writes' transactions; every figure here is checked against straight sums over the postings and the sales,
// written apart from the server's SQL, for each role's network, after confirmations, a failure, a reversal, a move
// and at a month's boundary, and after seed:scale's bulk load. Runs on PGlite and, with DATABASE_URL, on PostgreSQL.

import fs from 'node:fs';
import path from 'node:path';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/server/db/open';
import { inTransaction } from '../../src/server/db/transaction';
import { post } from '../../src/server/modules/ledger/ledger';
import {
  ADMIN,
  call,
  DEMO_PASSWORD,
  login,
  makeScaledContext,
  makeTestContext,
  saveBodyOf,
  type TestContext,
} from './helpers';
import { deliver, idsByMobile, productIdOf, sell } from './selling';

const INDIA = `'Asia/Kolkata'`;
const PERMISSION = 'You do not have permission to do this';

/** Today in India's calendar, YYYY-MM-DD. */
const indiaToday = () => new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
/** The `n` days ending today, oldest first. */
const lastDays = (n: number) => {
  const end = new Date(`${indiaToday()}T00:00:00Z`).getTime();
  return Array.from({ length: n }, (_, i) =>
    new Date(end - (n - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
};

type Day = { day: string; commission: number; sales: number; confirmed: number; failed: number };

/** The oracle: a network's (users whose path starts with `prefix`) commissions and sales per day, straight sums. */
async function recountDays(c: TestContext, prefix: string): Promise<Map<string, Omit<Day, 'day'>>> {
  const q = async (text: string) => (await c.database.pool.query(text, [`${prefix}%`])).rows;
  const commissions =
    await q(`select to_char((p.created_at at time zone ${INDIA})::date, 'YYYY-MM-DD') as day,
      sum(p.amount_paise)::text as paise
    from postings p join users u on u.id = p.user_id
    where p.kind = 'COMMISSION' and u.path like $1 group by 1`);
  const sales = await q(`select to_char((b.created_at at time zone ${INDIA})::date, 'YYYY-MM-DD') as day,
      count(*)::int as sales, count(*) filter (where b.status = 'CONFIRMED')::int as confirmed,
      count(*) filter (where b.status = 'FAILED')::int as failed
    from bought_products b where b.path like $1 group by 1`);
  const days = new Map<string, Omit<Day, 'day'>>();
  const at = (day: string) => {
    if (!days.has(day)) days.set(day, { commission: 0, sales: 0, confirmed: 0, failed: 0 });
    return days.get(day)!;
  };
  for (const row of commissions) at(row.day).commission = Number(row.paise) / 100;
  for (const row of sales)
    Object.assign(at(row.day), { sales: row.sales, confirmed: row.confirmed, failed: row.failed });
  return days;
}

/** The oracle: the month's retailers of a chain (`where` on users u, '' for all) by their own commission. */
async function recountTop(c: TestContext, month: string, where = 'true', values: unknown[] = []) {
  const rows = (
    await c.database.pool.query(
      `select u.id as "_id", u.name, sum(p.amount_paise)::text as paise
      from postings p join users u on u.id = p.user_id
      where p.kind = 'COMMISSION' and u.type = 4 and ${where}
        and to_char((p.created_at at time zone ${INDIA})::date, 'YYYY-MM') = '${month}'
      group by u.id, u.name order by sum(p.amount_paise) desc, u.id desc`,
      values,
    )
  ).rows;
  return rows.map((r) => ({ _id: r._id, name: r.name, commission: Number(r.paise) / 100 }));
}

/** The oracle: a network's sales of the month per product. */
async function recountProducts(c: TestContext, prefix: string, month: string) {
  const rows = (
    await c.database.pool.query(
      `select p.id as "_id", p.name, count(*)::int as sales,
        count(*) filter (where b.status = 'CONFIRMED')::int as confirmed,
        count(*) filter (where b.status = 'FAILED')::int as failed
      from bought_products b join products p on p.id = b.product_id
      where b.path like $1 and to_char((b.created_at at time zone ${INDIA})::date, 'YYYY-MM') = $2
      group by p.id, p.name order by count(*) desc, p.name, p.id`,
      [`${prefix}%`, month],
    )
  ).rows;
  return rows;
}

const pathOf = async (c: TestContext, id: string) =>
  (await c.database.pool.query('select path from users where id = $1', [id])).rows[0].path as string;

/** Checks a caller's trends against the recount of its network (staff: everyone). */
async function expectTrendsMatch(c: TestContext, token: string, prefix: string, days = 60) {
  const res = await call(c.app, 'GET', 'report/trends', { token, query: { days: String(days) } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const recount = await recountDays(c, prefix);
  const expected = lastDays(days).map((day) => ({
    day,
    ...(recount.get(day) ?? { commission: 0, sales: 0, confirmed: 0, failed: 0 }),
  }));
  expect(res.body.result.days).toEqual(expected);
  return res.body.result.days as Day[];
}

describe('the charts of the month over the demo network', () => {
  let ctx: TestContext;
  let admin: string;
  let ids: Record<string, string>;
  let saving: string;
  const month = () => indiaToday().slice(0, 7);
  const tokens: Record<string, string> = {};
  const tokenOf = async (mobile: string) => {
    tokens[mobile] ??= (await login(ctx.app, mobile, DEMO_PASSWORD)).token;
    return tokens[mobile];
  };
  /** Every caller's network: [mobile or admin, its recount prefix]. */
  const callers = async (): Promise<[string, string, string][]> => [
    ['admin', admin, '/'],
    ['employee', await tokenOf('9000000001'), '/'],
    ...(await Promise.all(
      ['9100000001', '9100000002', '9200000001', '9200000003', '9300000001', '9300000005'].map(
        async (m): Promise<[string, string, string]> => [m, await tokenOf(m), await pathOf(ctx, ids[m])],
      ),
    )),
  ];
  const sellAs = async (retailerMobile: string, customerMobile: string) => {
    const sale = await sell(ctx.app, await tokenOf(retailerMobile), {
      customerId: ids[customerMobile],
      productId: saving,
    });
    expect(sale.recorded.status, JSON.stringify(sale.recorded.body)).toBe(200);
    return { utmCode: sale.utmCode, merchantCode: sale.merchantCode };
  };

  beforeAll(async () => {
    ctx = await makeTestContext();
    // The built-in sandbox partner answers over HTTP.
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
    ids = await idsByMobile(ctx.app, admin);
    saving = await productIdOf(ctx.app, admin);
  });
  afterAll(() => ctx?.close());

  it('answers every role the days, the top and the products of its own network, equal to straight sums', async () => {
    for (const [who, token, prefix] of await callers()) {
      const days = await expectTrendsMatch(ctx, token, prefix);
      expect(days, who).toHaveLength(60);
      const products = await call(ctx.app, 'GET', 'report/products', { token, query: { month: month() } });
      expect(products.status, who).toBe(200);
      expect(products.body.result, who).toEqual({
        month: month(),
        products: await recountProducts(ctx, prefix, month()),
      });
    }
  });

  it('moves today’s point with each sale: recorded, confirmed, failed and reversed, as the tiles count commissions', async () => {
    const todayOf = async (token: string) =>
      (await call(ctx.app, 'GET', 'report/trends', { token, query: { days: '1' } })).body.result
        .days[0] as Day;
    const tileOf = async (token: string) =>
      (await call(ctx.app, 'GET', 'report/commissions', { token })).body.result.commissions.today as number;
    const retailer = await tokenOf('9300000001');
    const distributorOther = await tokenOf('9200000003');
    const before = {
      admin: await todayOf(admin),
      retailer: await todayOf(retailer),
      other: await todayOf(distributorOther),
    };

    const confirmed = await sellAs('9300000001', '9400000001');
    expect((await todayOf(retailer)).sales).toBe(before.retailer.sales + 1);
    expect((await deliver(ctx.app, { event: 'account.opened', ...confirmed })).status).toBe(200);
    const failed = await sellAs('9300000001', '9400000002');
    expect((await deliver(ctx.app, { event: 'account.failed', ...failed })).status).toBe(200);
    const after = await todayOf(retailer);
    expect(after).toMatchObject({
      sales: before.retailer.sales + 2,
      confirmed: before.retailer.confirmed + 1,
      failed: before.retailer.failed + 1,
    });
    expect(after.commission).toBeGreaterThan(before.retailer.commission);
    // Today's point is the Commissions Today tile, for every network.
    for (const token of [admin, retailer])
      expect((await todayOf(token)).commission).toBe(await tileOf(token));
    // Another distributor's network saw nothing.
    expect(await todayOf(distributorOther)).toEqual(before.other);

    // A reversal takes the sale out of `confirmed`; the commission credited stays, as on the tiles.
    expect((await deliver(ctx.app, { event: 'account.reversed', ...confirmed })).status).toBe(200);
    const reversed = await todayOf(retailer);
    expect(reversed).toEqual({ ...after, confirmed: after.confirmed - 1 });
    expect(reversed.commission).toBe(await tileOf(retailer));
    for (const [who, token, prefix] of await callers()) {
      await expectTrendsMatch(ctx, token, prefix);
      const products = await call(ctx.app, 'GET', 'report/products', { token, query: { month: month() } });
      expect(products.body.result.products, who).toEqual(await recountProducts(ctx, prefix, month()));
      if (!who.startsWith('93')) {
        const top = await call(ctx.app, 'GET', 'report/top', { token, query: { month: month() } });
        expect(top.status, who).toBe(200);
      }
    }
  });

  it('ranks the month’s retailers by their own commission for staff, a master distributor and a distributor', async () => {
    // A second confirmed sale by retailer 3, under distributor 2, so the ranking has more than one retailer.
    const sale = await sellAs('9300000003', '9400000007');
    expect((await deliver(ctx.app, { event: 'account.opened', ...sale })).status).toBe(200);
    const topOf = async (token: string, query: Record<string, string> = {}) => {
      const res = await call(ctx.app, 'GET', 'report/top', { token, query: { month: month(), ...query } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.result;
    };
    const all = await recountTop(ctx, month());
    expect(all.length).toBeGreaterThan(1);
    expect(await topOf(admin)).toEqual({ month: month(), retailers: all.slice(0, 10) });
    expect(await topOf(await tokenOf('9000000001'), { limit: '1' })).toEqual({
      month: month(),
      retailers: all.slice(0, 1),
    });
    const md = await topOf(await tokenOf('9100000001'));
    expect(md.retailers).toEqual(
      await recountTop(ctx, month(), 'u.master_distributor_id = $1', [ids['9100000001']]),
    );
    expect(md.retailers.length).toBeGreaterThan(0);
    const d = await topOf(await tokenOf('9200000001'));
    expect(d.retailers).toEqual(await recountTop(ctx, month(), 'u.distributor_id = $1', [ids['9200000001']]));
    expect((await topOf(await tokenOf('9200000004'))).retailers).toEqual(
      await recountTop(ctx, month(), 'u.distributor_id = $1', [ids['9200000004']]),
    );
    // A month with no commission has no retailers.
    expect(await topOf(admin, { month: '2026-01' })).toEqual({ month: '2026-01', retailers: [] });
  });

  it('counts a commission in the month of India’s calendar it was made, on either side of midnight', async () => {
    const retailerId = ids['9300000004'];
    const commission = (at: string, amountPaise: number) =>
      inTransaction(ctx.database.db, (tx) =>
        post(
          tx,
          [
            {
              userId: retailerId,
              kind: 'COMMISSION',
              transactionType: 'CREDIT',
              balanceType: 'CLEARING',
              status: 'CLEARING',
              amountPaise,
            },
          ],
          { ledgerKey: ctx.ledgerKey, now: new Date(at) },
        ),
      );
    // 23:45 on 31 October 2025 in India, then 00:15 and 00:20 on 1 November (all still 31 October in UTC).
    await commission('2025-10-31T18:15:00Z', 1_000);
    await commission('2025-10-31T18:45:00Z', 2_000);
    await commission('2025-10-31T18:50:00Z', 3_000);
    const top = async (m: string) =>
      (await call(ctx.app, 'GET', 'report/top', { token: admin, query: { month: m } })).body.result.retailers;
    expect(await top('2025-10')).toEqual([{ _id: retailerId, name: expect.any(String), commission: 10 }]);
    expect(await top('2025-11')).toEqual([{ _id: retailerId, name: expect.any(String), commission: 50 }]);
    expect(await top('2025-10')).toEqual(await recountTop(ctx, '2025-10'));
    expect(await top('2025-11')).toEqual(await recountTop(ctx, '2025-11'));
  });

  it('follows a retailer that moves: it leaves its old chain’s top for its new one', async () => {
    // Retailer 1 (this month's commissions) from distributor 1 under master distributor 1 to distributor 3 under
    // master distributor 2.
    const retailerId = ids['9300000001'];
    const topIds = async (mobile: string) =>
      (
        await call(ctx.app, 'GET', 'report/top', { token: await tokenOf(mobile), query: { month: month() } })
      ).body.result.retailers.map((r: { _id: string }) => r._id);
    expect(await topIds('9200000001')).toContain(retailerId);
    expect(await topIds('9200000003')).not.toContain(retailerId);
    const moved = await call(ctx.app, 'POST', `account/update/${retailerId}`, {
      token: admin,
      body: {
        ...(await saveBodyOf(ctx.app, admin, retailerId)),
        distributor: { masterDistributorId: ids['9100000002'] },
        retailer: { distributorId: ids['9200000003'] },
      },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await topIds('9200000001')).not.toContain(retailerId);
    expect(await topIds('9100000001')).not.toContain(retailerId);
    expect(await topIds('9200000003')).toContain(retailerId);
    expect(await topIds('9100000002')).toContain(retailerId);
    for (const [mobile, column] of [
      ['9100000001', 'master_distributor_id'],
      ['9100000002', 'master_distributor_id'],
      ['9200000001', 'distributor_id'],
      ['9200000003', 'distributor_id'],
    ]) {
      const res = await call(ctx.app, 'GET', 'report/top', {
        token: await tokenOf(mobile),
        query: { month: month() },
      });
      expect(res.body.result.retailers, mobile).toEqual(
        await recountTop(ctx, month(), `u.${column} = $1`, [ids[mobile]]),
      );
    }
  });

  it('refuses a retailer the top retailers, and a caller without a session every chart', async () => {
    const res = await call(ctx.app, 'GET', 'report/top', {
      token: await tokenOf('9300000002'),
      query: { month: month() },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: PERMISSION });
    for (const route of ['report/trends', 'report/top', 'report/products']) {
      const anonymous = await call(ctx.app, 'GET', route, { query: { month: month() } });
      expect(anonymous.status, route).toBe(401);
      expect(anonymous.body, route).toEqual({ message: 'Authentication required' });
    }
  });

  it('refuses days, a month and a limit out of their rules, with the field named', async () => {
    const DAYS = 'days must be a whole number from 1 to 90';
    const MONTH = 'month must be a month such as 2026-11';
    const cases: [string, Record<string, string>, { msg: string; param: string }][] = [
      ['report/trends', { days: '0' }, { msg: DAYS, param: 'days' }],
      ['report/trends', { days: '91' }, { msg: DAYS, param: 'days' }],
      ['report/trends', { days: '1.5' }, { msg: DAYS, param: 'days' }],
      ['report/trends', { days: 'thirty' }, { msg: DAYS, param: 'days' }],
      ['report/top', {}, { msg: MONTH, param: 'month' }],
      ['report/top', { month: '2026-13' }, { msg: MONTH, param: 'month' }],
      ['report/top', { month: '2026-11', limit: '0' }, { msg: 'limit must be at least 1', param: 'limit' }],
      [
        'report/top',
        { month: '2026-11', limit: '101' },
        { msg: 'limit must be at most 100', param: 'limit' },
      ],
      ['report/products', { month: 'November' }, { msg: MONTH, param: 'month' }],
    ];
    for (const [route, query, error] of cases) {
      const res = await call(ctx.app, 'GET', route, { token: admin, query });
      expect(res.status, `${route} ${JSON.stringify(query)}`).toBe(400);
      expect(res.body, `${route} ${JSON.stringify(query)}`).toEqual({
        message: 'Invalid data!',
        errors: [error],
      });
    }
    // Without days: the last 30.
    const plain = await call(ctx.app, 'GET', 'report/trends', { token: admin });
    expect(plain.body.result.days.map((d: Day) => d.day)).toEqual(lastDays(30));
  });
});

describe('the charts’ counters and their migration', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
    const ids = await idsByMobile(ctx.app, admin);
    // One more confirmed sale, so there is more than the demo's.
    const retailer = (await login(ctx.app, '9300000005', DEMO_PASSWORD)).token;
    const sale = await sell(ctx.app, retailer, {
      customerId: ids['9400000013'],
      productId: await productIdOf(ctx.app, admin),
    });
    expect((await deliver(ctx.app, { event: 'account.opened', ...sale })).status).toBe(200);
  });
  afterAll(() => ctx?.close());

  it('are filled from the sales and the postings written before the migration that keeps them', async () => {
    const rows = async (text: string, values: unknown[] = []) =>
      (await ctx.database.pool.query(text, values)).rows;
    const kept = async () => ({
      days: await rows(`select scope_id, day::text, product_id, sales, confirmed, failed from sale_days
        where sales <> 0 or confirmed <> 0 or failed <> 0 order by 1, 2, 3`),
      months: await rows(`select retailer_id, month::text, master_distributor_id, distributor_id,
        amount_paise::text from retailer_commission_months order by 1, 2`),
    });
    const before = await kept();
    // The sale's day in the whole network, its master distributor's, its distributor's and its retailer's.
    expect(before.days.length).toBeGreaterThanOrEqual(4);
    expect(before.months.length).toBeGreaterThanOrEqual(1);
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'));
    const whenOf = (tag: string): number => journal.entries.find((e: { tag: string }) => e.tag === tag).when;
    // drizzle runs only migrations newer than the last one run: the later ones are undone too (a new one adds its
    // undo here, as in network-money.test.ts).
    await rows('drop table statement_notices');
    await rows('drop table sale_days, retailer_commission_months');
    await rows('delete from drizzle.__drizzle_migrations where created_at >= $1', [whenOf('0035_charts')]);
    expect(Math.max(...journal.entries.map((e: { when: number }) => e.when))).toBe(
      whenOf('0036_statement_notices'),
    );
    await migrate(ctx.database.db, { migrationsFolder: MIGRATIONS_DIR });
    expect(await kept()).toEqual(before);
  });
});

describe('the charts over seed:scale’s bulk load', () => {
  let scaled: TestContext;
  beforeAll(async () => {
    scaled = await makeScaledContext();
  });
  afterAll(() => scaled?.close());

  it('reads counters the bulk load filled as straight sums over its postings and sales', async () => {
    const admin = (await login(scaled.app, ADMIN.userName, ADMIN.password)).token;
    const days = await expectTrendsMatch(scaled, admin, '/', 90);
    expect(days.some((d) => d.sales > 0 && d.commission > 0)).toBe(true);
    const months = (
      await scaled.database.pool.query(
        `select distinct to_char((created_at at time zone ${INDIA})::date, 'YYYY-MM') as month from bought_products
        order by 1 desc limit 2`,
      )
    ).rows.map((r) => r.month as string);
    for (const month of months) {
      const top = await call(scaled.app, 'GET', 'report/top', {
        token: admin,
        query: { month, limit: '100' },
      });
      expect(top.body.result.retailers, month).toEqual((await recountTop(scaled, month)).slice(0, 100));
      const products = await call(scaled.app, 'GET', 'report/products', { token: admin, query: { month } });
      expect(products.body.result.products, month).toEqual(await recountProducts(scaled, '/', month));
    }
  });
});
