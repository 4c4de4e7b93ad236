// Each user's commissions per month, kept by the ledger's posting statement for the dashboard's month tile:
// counted in the month of India's calendar, checked by reconcile, and filled from the postings by its migration.
// Runs on PGlite and, with DATABASE_URL, on PostgreSQL; the concurrency test (ledger-concurrency) reconciles them
// after concurrent sales.

import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/server/db/open';
import { inTransaction } from '../../src/server/db/transaction';
import { COMMISSION_MONTHS, post } from '../../src/server/modules/ledger/ledger';
import { UserType } from '../../src/shared/enums';
import {
  ADMIN,
  call,
  DEMO_PASSWORD,
  login,
  makeTestContext,
  recountTiles,
  type TestContext,
} from './helpers';
import { deliver, idsByMobile, sell } from './selling';

let ctx: TestContext;
let admin: string;
let ids: Record<string, string>;

const rows = async <T>(text: string, values: unknown[] = []) =>
  (await ctx.database.pool.query(text, values)).rows as T[];
/** What commission_months holds for a user, month by month ('YYYY-MM-DD' -> paise). */
const keptMonths = async (userId: string) =>
  Object.fromEntries(
    (
      await rows<{ month: string; paise: string }>(
        `select to_char(month, 'YYYY-MM-DD') as month, amount_paise as paise from commission_months
         where user_id = $1 order by month`,
        [userId],
      )
    ).map((r) => [r.month, Number(r.paise)]),
  );
const reconcile = async () => (await call(ctx.app, 'GET', 'ledger/reconcile', { token: admin })).body.result;

beforeAll(async () => {
  ctx = await makeTestContext();
  // The built-in sandbox partner answers over HTTP.
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  ids = await idsByMobile(ctx.app, admin);
  const products = await call(ctx.app, 'GET', 'products/fetch', {
    token: admin,
    query: { searchText: 'Saving' },
  });
  // One confirmed ₹500 sale by retailer 1, so every tier of its chain has commissions this month.
  const retailer = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
  const { utmCode, merchantCode } = await sell(ctx.app, retailer, {
    customerId: ids['9400000001'],
    productId: products.body.result.products[0]._id,
  });
  expect((await deliver(ctx.app, { event: 'account.opened', utmCode, merchantCode })).status).toBe(200);
});
afterAll(() => ctx.close());

describe('a user’s commissions of the month', () => {
  it('count each commission in the month of India’s calendar it was made in', async () => {
    const userId = ids['9300000002'];
    const before = await keptMonths(userId);
    const commission = (at: string, amountPaise: number) =>
      inTransaction(ctx.database.db, (tx) =>
        post(
          tx,
          [
            {
              userId,
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
    // 23:45 on 31 October in India, and half an hour later, 00:15 on 1 November (both still 31 October in UTC).
    await commission('2026-10-31T18:15:00Z', 1_000);
    await commission('2026-10-31T18:45:00Z', 2_000);
    await commission('2026-10-31T18:50:00Z', 3_000);
    const after = await keptMonths(userId);
    const added = (month: string) => (after[month] ?? 0) - (before[month] ?? 0);
    expect(added('2026-10-01')).toBe(1_000);
    expect(added('2026-11-01')).toBe(5_000);
    expect(await reconcile()).toMatchObject({ ok: true, breaks: [] });
  });

  it('give a master distributor, a distributor and a retailer the tiles of their own networks', async () => {
    // The rows written live above: retailer 1's sale of today, and retailer 2's commissions of 31 October and
    // 1 November, still in clearing. A master distributor's three sums take one join (modules/reports), the
    // others one each; a tile summed from another's rows could not equal the recount.
    // Which of those each network holds: today's sale, and the older commissions (clearing above today).
    const holds: Record<string, { sale: boolean; older: boolean }> = {
      '9100000001': { sale: true, older: true },
      '9200000001': { sale: true, older: true },
      '9300000001': { sale: true, older: false },
      '9300000002': { sale: false, older: true },
    };
    for (const [mobile, { sale, older }] of Object.entries(holds)) {
      const { token, user } = await login(ctx.app, mobile, DEMO_PASSWORD);
      const [{ path: prefix }] = await rows<{ path: string }>('select path from users where id = $1', [
        user._id,
      ]);
      const want = await recountTiles(ctx.database, prefix);
      expect(want.today > 0, mobile).toBe(sale);
      expect(want.clearing > want.today, mobile).toBe(older);
      const res = await call(ctx.app, 'GET', 'report/commissions', { token });
      expect(res.status).toBe(200);
      expect(res.body.result.commissions, mobile).toEqual(want);
    }
  });

  it('are checked by reconcile against the postings, each wrong month named', async () => {
    const retailerId = ids['9300000001'];
    const [kept] = await rows<{ month: string; paise: string; label: string }>(
      `select month::text as month, amount_paise as paise, to_char(month, 'YYYY-MM') as label
       from commission_months where user_id = $1 order by month desc limit 1`,
      [retailerId],
    );
    const paise = Number(kept.paise);
    expect(paise).toBeGreaterThan(0);
    const detail = (userId: string, keptPaise: number, summed: number) =>
      `commissions of ${userId} in ${kept.label}: ${keptPaise}/${summed} (kept/summed, paise)`;
    try {
      await rows(
        `update commission_months set amount_paise = amount_paise + 1 where user_id = $1 and month = $2`,
        [retailerId, kept.month],
      );
      expect(await reconcile()).toMatchObject({
        ok: false,
        breaks: [{ check: 'commission-month', detail: detail(retailerId, paise + 1, paise) }],
      });
      await rows(`delete from commission_months where user_id = $1 and month = $2`, [retailerId, kept.month]);
      expect((await reconcile()).breaks).toEqual([
        { check: 'commission-month', detail: detail(retailerId, 0, paise) },
      ]);
      // A month kept for a user with no commissions in it (an employee earns none).
      const [{ id: employeeId }] = await rows<{ id: string }>(
        'select id from users where type = $1 limit 1',
        [UserType.EMPLOYEE],
      );
      await rows(`insert into commission_months (month, user_id, amount_paise) values ($1, $2, 700)`, [
        kept.month,
        employeeId,
      ]);
      expect((await reconcile()).breaks).toEqual(
        [
          { check: 'commission-month', detail: detail(retailerId, 0, paise) },
          { check: 'commission-month', detail: detail(employeeId, 700, 0) },
        ].sort((a, b) => a.detail.localeCompare(b.detail)),
      );
    } finally {
      await rows(`delete from commission_months where user_id = any($1::uuid[]) and month = $2`, [
        [
          retailerId,
          ...(await rows<{ id: string }>('select id from users where type = $1', [UserType.EMPLOYEE])).map(
            (r) => r.id,
          ),
        ],
        kept.month,
      ]);
      await rows(`insert into commission_months (month, user_id, amount_paise) values ($1, $2, $3)`, [
        kept.month,
        retailerId,
        paise,
      ]);
    }
    expect(await reconcile()).toMatchObject({ ok: true, breaks: [] });
  });

  it('are filled from the postings written before the migration that keeps them', async () => {
    const want = await rows(
      `select month::text, user_id, amount_paise::text from (${COMMISSION_MONTHS}) s order by 1, 2`,
    );
    expect(want.length).toBeGreaterThan(4);
    // Back to the schema before migration 0011 (the last one applied), the postings left as they are, and
    // migrated again.
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'));
    const entry = journal.entries.find((e: { tag: string }) => e.tag === '0011_commission_months');
    const [last] = await rows<{ created_at: string }>(
      'select created_at from drizzle.__drizzle_migrations order by id desc limit 1',
    );
    expect(Number(last.created_at), 'a later migration would have to be undone too').toBe(entry.when);
    await rows('drop table commission_months');
    await ctx.database.db.execute(
      sql`delete from drizzle.__drizzle_migrations where created_at = ${entry.when}`,
    );
    await migrate(ctx.database.db, { migrationsFolder: MIGRATIONS_DIR });
    expect(
      await rows(`select month::text, user_id, amount_paise::text from commission_months order by 1, 2`),
    ).toEqual(want);
    expect(await reconcile()).toMatchObject({ ok: true, breaks: [] });
  });
});
