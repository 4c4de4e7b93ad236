// The money the ledger keeps per network for the dashboard's tiles (network_commission_days, network_clearing):
// written with the postings in their transaction, counted on the day of India's calendar, carried along when a
// subtree moves, exact when writers sharing no wallet add to them at once, checked by reconcile, and filled from
// the postings and wallets by its migration. Runs on PGlite and, with DATABASE_URL, on PostgreSQL; the concurrency
// test (ledger-concurrency) reconciles them after concurrent sales, settlements, payouts and moves.

import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/server/db/open';
import { inTransaction } from '../../src/server/db/transaction';
import { NETWORK_CLEARING, NETWORK_COMMISSION_DAYS, post } from '../../src/server/modules/ledger/ledger';
import { WHOLE_NETWORK } from '../../src/server/modules/network/index';
import { UserType } from '../../src/shared/enums';
import {
  ADMIN,
  call,
  DEMO_PASSWORD,
  login,
  makeTestContext,
  recountTiles,
  saveBodyOf,
  type TestContext,
} from './helpers';
import { deliver, idsByMobile, sell } from './selling';

let ctx: TestContext;
let admin: string;
let ids: Record<string, string>;

const rows = async <T>(text: string, values: unknown[] = []) =>
  (await ctx.database.pool.query(text, values)).rows as T[];
/** What the ledger keeps for a network: its commissions by day ('YYYY-MM-DD' -> paise) and its clearing. */
const kept = async (scopeId: string) => {
  const days = await rows<{ day: string; paise: string }>(
    `select to_char(day, 'YYYY-MM-DD') as day, amount_paise as paise from network_commission_days
     where scope_id = $1 order by day`,
    [scopeId],
  );
  const [clearing] = await rows<{ paise: string }>(
    'select clearing_paise as paise from network_clearing where scope_id = $1',
    [scopeId],
  );
  return {
    days: Object.fromEntries(days.map((r) => [r.day, Number(r.paise)])) as Record<string, number>,
    clearing: clearing ? Number(clearing.paise) : 0,
  };
};
const reconcile = async () => (await call(ctx.app, 'GET', 'ledger/reconcile', { token: admin })).body.result;
/** The tiles a user's dashboard shows, and a recount of them over its network as it is now. */
const tilesOf = async (mobile: string) => {
  const { token, user } = await login(ctx.app, mobile, DEMO_PASSWORD);
  const [{ path: prefix }] = await rows<{ path: string }>('select path from users where id = $1', [user._id]);
  const res = await call(ctx.app, 'GET', 'report/commissions', { token });
  expect(res.status).toBe(200);
  return { shown: res.body.result.commissions, recount: await recountTiles(ctx.database, prefix) };
};

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
  // One confirmed ₹500 sale by retailer 1, so every tier of its chain has commissions today.
  const retailer = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
  const { utmCode, merchantCode } = await sell(ctx.app, retailer, {
    customerId: ids['9400000001'],
    productId: products.body.result.products[0]._id,
  });
  expect((await deliver(ctx.app, { event: 'account.opened', utmCode, merchantCode })).status).toBe(200);
});
afterAll(() => ctx.close());

/** What each migration after 0012 adds, newest first: undone before 0012 is run again. A new migration adds its undo. */
const UNDO_AFTER_0012: [tag: string, statements: string[]][] = [
  ['0036_statement_notices', ['drop table statement_notices']],
  ['0035_charts', ['drop table sale_days, retailer_commission_months']],
  ['0034_events', ['drop table events']],
  [
    '0033_notifications',
    [
      'drop table notification_attempts, notifications, webhook_endpoints',
      'alter table users drop column language, drop column notify_email, drop column notify_sms',
    ],
  ],
  [
    '0032_runner_locks',
    [
      `create table job_leases (name text primary key not null, holder text not null,
        expires_at timestamp with time zone not null, last_run_at timestamp with time zone)`,
      'alter table import_jobs add column updated_at timestamp with time zone default now() not null',
    ],
  ],
  [
    '0031_import_files',
    [
      'drop index import_jobs_running_actor_key',
      'alter table import_errors drop column id',
      `alter table import_jobs drop column file_id, drop column errors_found,
        add column content bytea not null default ''::bytea`,
    ],
  ],
  [
    '0030_second_step',
    [
      'drop table recovery_codes, second_steps',
      'alter table sessions drop column id, drop column last_seen_at, drop column ip, drop column user_agent',
      'alter table users drop column mfa_setup_required',
    ],
  ],
  [
    '0029_checkers',
    [
      'drop index pending_commands_posting_idx, pending_commands_power_once, postings_payout_maker_idx',
      `alter table pending_commands drop constraint pending_commands_user_check,
        drop constraint pending_commands_kind_check, drop constraint pending_commands_amount_check,
        drop column note, drop column details,
        alter column user_id set not null, alter column amount_paise set not null`,
      `alter table pending_commands add constraint pending_commands_kind_check check (kind in ('PAYOUT', 'ADJUSTMENT')),
        add constraint pending_commands_amount_check check (amount_paise <> 0 and (kind <> 'PAYOUT' or amount_paise > 0))`,
    ],
  ],
  [
    '0028_tds_challan_serials',
    [
      'drop index tds_entries_withheld_commission_idx, tds_entries_challan_key',
      `create unique index tds_entries_challan_key on tds_entries (bsr_code, challan_serial, deposited_on)
        where kind = 'DEPOSIT'`,
    ],
  ],
  ['0027_session_wal_position', ['alter table sessions drop column wal_lsn']],
  ['0026_rate_limits', ['drop table rate_limit_hits']],
  ['0025_data_key_check', ['drop table data_key_check']],
  [
    '0024_stored_files',
    [
      `alter table leads drop constraint leads_picture_file_stored_files_id_fk,
        drop constraint leads_document_file_stored_files_id_fk`,
      'drop table stored_file_chunks, stored_files',
    ],
  ],
  ['0023_posting_day_totals', ['drop table posting_day_totals, posting_month_totals, wallet_day_totals']],
  ['0022_reconcile_runs', ['drop table reconcile_runs']],
  ['0021_imports', ['drop table import_errors', 'drop table import_jobs']],
  [
    '0020_approvals',
    [
      'drop table pending_commands',
      'alter table postings drop constraint postings_kind_check, drop constraint postings_status_check',
      `alter table postings add constraint postings_kind_check
        check (kind in ('COMMISSION', 'SETTLEMENT', 'REVERSAL', 'PAYOUT', 'TDS'))`,
      `alter table postings add constraint postings_status_check
        check (status in ('CLEARING', 'SETTLED', 'REVERSED', 'PAID', 'WITHHELD'))`,
    ],
  ],
  [
    '0019_tds',
    [
      'drop table tds_entries, ledger_accounts',
      'drop index postings_tds_once',
      'alter table postings drop constraint postings_kind_check, drop constraint postings_status_check',
      `alter table postings add constraint postings_kind_check
        check (kind in ('COMMISSION', 'SETTLEMENT', 'REVERSAL', 'PAYOUT'))`,
      `alter table postings add constraint postings_status_check
        check (status in ('CLEARING', 'SETTLED', 'REVERSED', 'PAID'))`,
    ],
  ],
  // 0018 drops what 0013 made (the letter runs' index and its function): neither has anything left to undo.
  ['0018_drop_letter_search', []],
  [
    '0017_wallets_may_owe',
    [
      'drop index postings_payout_reference_folded_idx',
      'alter table postings drop constraint postings_balances_check',
      `alter table postings add constraint postings_balances_check
        check (balance_after_paise >= 0 and clearing_balance_after_paise >= 0)`,
      'alter table wallets add constraint wallets_balance_check check (balance_paise >= 0)',
    ],
  ],
  [
    '0016_opening_binding',
    [
      'drop table idempotency_keys',
      'alter table provider_events drop column merchant_code',
      `alter table account_openings drop constraint account_openings_split_check, drop column amount_paise,
        drop column admin_commission, drop column master_distributor_commission, drop column distributor_commission,
        drop column retailer_commission, drop column customer_commission, drop column url`,
    ],
  ],
  ['0015_sandbox_keys', ['alter table sandbox_accounts drop column customer_name, drop column key_hash']],
  [
    '0014_sign_in_names',
    [
      'drop trigger users_sign_in_names_insert on users',
      'drop trigger users_sign_in_names_update on users',
      'drop function keep_sign_in_names()',
      'drop table sign_in_name_clashes, sign_in_names',
    ],
  ],
  ['0013_letter_search', []],
];

/** One commission posted straight into `userId`'s clearing balance, at `now` (the clock's time by default). */
const clearingCommission = (userId: string, amountPaise: number, now?: Date) =>
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
      { ledgerKey: ctx.ledgerKey, ...(now ? { now } : {}) },
    ),
  );

describe('the money kept per network', () => {
  it('counts each commission on the day of India’s calendar it was made, in the whole network and every network on its user’s path', async () => {
    // Retailer 2, under distributor 1 and master distributor 1; distributor 2 is beside it.
    const userId = ids['9300000002'];
    const networks = [WHOLE_NETWORK, ids['9100000001'], ids['9200000001'], userId];
    const before = await Promise.all(networks.map(kept));
    const besideBefore = await kept(ids['9200000002']);
    const commission = (at: string, amountPaise: number) =>
      clearingCommission(userId, amountPaise, new Date(at));
    // 23:45 on 31 October in India, and half an hour later, 00:15 on 1 November (both still 31 October in UTC).
    await commission('2026-10-31T18:15:00Z', 1_000);
    await commission('2026-10-31T18:45:00Z', 2_000);
    await commission('2026-10-31T18:50:00Z', 3_000);
    const after = await Promise.all(networks.map(kept));
    networks.forEach((network, n) => {
      const added = (day: string) => (after[n].days[day] ?? 0) - (before[n].days[day] ?? 0);
      expect(added('2026-10-31'), network).toBe(1_000);
      expect(added('2026-11-01'), network).toBe(5_000);
      // Staff's clearing is summed from the wallets: the whole network keeps no clearing row.
      expect(after[n].clearing - before[n].clearing, network).toBe(network === WHOLE_NETWORK ? 0 : 6_000);
    });
    expect(await kept(ids['9200000002'])).toEqual(besideBefore);
    expect(await reconcile()).toMatchObject({ ok: true, breaks: [] });
  });

  it('give the admin, a master distributor, a distributor and a retailer the tiles of their own networks', async () => {
    // The rows written above: retailer 1's sale of today, and retailer 2's commissions of 31 October and
    // 1 November, still in clearing. A tile read from another network's rows could not equal the recount.
    const holds: Record<string, { sale: boolean; older: boolean }> = {
      '9100000001': { sale: true, older: true },
      '9200000001': { sale: true, older: true },
      '9300000001': { sale: true, older: false },
      '9300000002': { sale: false, older: true },
      '9100000002': { sale: false, older: false },
    };
    for (const [mobile, { sale, older }] of Object.entries(holds)) {
      const { shown, recount } = await tilesOf(mobile);
      expect(recount.today > 0, mobile).toBe(sale);
      expect(recount.clearing > recount.today, mobile).toBe(older);
      expect(shown, mobile).toEqual(recount);
    }
    const res = await call(ctx.app, 'GET', 'report/commissions', { token: admin });
    expect(res.body.result.commissions).toEqual(await recountTiles(ctx.database, '/'));
  });

  it('moves with a subtree: the networks it leaves lose its money, the ones it joins gain it', async () => {
    // Retailer 1 (today's sale, and its customers' shares) from distributor 1 under master distributor 1 to
    // distributor 3 under master distributor 2; then one of retailer 2's customers to retailer 3.
    const networks = ['9100000001', '9200000001', '9100000002', '9200000003', '9300000002', '9300000003'];
    const before = Object.fromEntries(
      await Promise.all(networks.map(async (m) => [m, (await tilesOf(m)).shown] as const)),
    );
    const subtree = await tilesOf('9300000001');
    expect(subtree.shown.today).toBeGreaterThan(0);
    const moved = await call(ctx.app, 'POST', `account/update/${ids['9300000001']}`, {
      token: admin,
      body: {
        ...(await saveBodyOf(ctx.app, admin, ids['9300000001'])),
        distributor: { masterDistributorId: ids['9100000002'] },
        retailer: { distributorId: ids['9200000003'] },
      },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const customer = await saveBodyOf(ctx.app, admin, ids['9400000004']);
    const movedCustomer = await call(ctx.app, 'POST', `account/update/${ids['9400000004']}`, {
      token: admin,
      body: { ...customer, customer: { ...customer.customer, retailerId: ids['9300000003'] } },
    });
    expect(movedCustomer.status, JSON.stringify(movedCustomer.body)).toBe(200);
    for (const mobile of networks) {
      const { shown, recount } = await tilesOf(mobile);
      expect(shown, mobile).toEqual(recount);
    }
    const round = (n: number) => Math.round(n * 100) / 100;
    const change = async (mobile: string) => (await tilesOf(mobile)).shown.today - before[mobile].today;
    expect(round(await change('9100000001'))).toBe(-subtree.shown.today);
    expect(round(await change('9200000001'))).toBe(-subtree.shown.today);
    expect(round(await change('9100000002'))).toBe(subtree.shown.today);
    expect(round(await change('9200000003'))).toBe(subtree.shown.today);
    expect(await reconcile()).toMatchObject({ ok: true, breaks: [] });
  });

  it('stay exact when writers that share no wallet add to the same rows at once', async () => {
    // One writer per tier user, all at once, each crediting only its own wallet: they share no wallet lock, only the
    // rows the ledger keeps (the whole network's day, the days and clearing of the networks above them, the day's and
    // the month's totals), which each takes after its wallet, table by table in key order. On PostgreSQL they race.
    const heads = [
      ...['9100000001', '9100000002'],
      ...['9200000001', '9200000002', '9200000003', '9200000004'],
      ...['9300000001', '9300000002', '9300000003', '9300000004', '9300000005', '9300000006', '9300000007'],
    ];
    const adminTiles = async () =>
      (await call(ctx.app, 'GET', 'report/commissions', { token: admin })).body.result.commissions;
    const before = await adminTiles();
    const tierUsers = Object.values(ids);
    expect(tierUsers.length).toBeGreaterThan(heads.length);
    await Promise.all(tierUsers.map((userId, n) => clearingCommission(userId, 100 + n)));
    const added = tierUsers.reduce((sum, _, n) => sum + 100 + n, 0) / 100;
    const after = await adminTiles();
    expect(Math.round((after.today - before.today) * 100) / 100).toBe(added);
    expect(after).toEqual(await recountTiles(ctx.database, '/'));
    for (const mobile of heads) {
      const { shown, recount } = await tilesOf(mobile);
      expect(shown, mobile).toEqual(recount);
    }
    expect(await reconcile()).toMatchObject({ ok: true, breaks: [] });
  });

  it('are checked by reconcile against the postings and the wallets, each wrong row named', async () => {
    const distributorId = ids['9200000001'];
    const retailerId = ids['9300000002'];
    const [day] = await rows<{ day: string; paise: string }>(
      `select to_char(day, 'YYYY-MM-DD') as day, amount_paise as paise from network_commission_days
       where scope_id = $1 order by day desc limit 1`,
      [distributorId],
    );
    const paise = Number(day.paise);
    const { clearing } = await kept(retailerId);
    expect(paise).toBeGreaterThan(0);
    expect(clearing).toBeGreaterThan(0);
    const [{ id: employeeId }] = await rows<{ id: string }>('select id from users where type = $1 limit 1', [
      UserType.EMPLOYEE,
    ]);
    try {
      await rows(
        'update network_commission_days set amount_paise = amount_paise + 1 where scope_id = $1 and day = $2',
        [distributorId, day.day],
      );
      await rows('delete from network_clearing where scope_id = $1', [retailerId]);
      // A network kept for someone who heads none (an employee).
      await rows('insert into network_clearing (scope_id, clearing_paise) values ($1, 700)', [employeeId]);
      const report = await reconcile();
      expect(report.ok).toBe(false);
      expect(report.breaks).toEqual([
        {
          check: 'network-commissions',
          detail: `commissions of network ${distributorId} on ${day.day}: ${paise + 1}/${paise} (kept/summed, paise)`,
        },
        ...[
          {
            check: 'network-clearing',
            detail: `clearing of network ${retailerId}: 0/${clearing} (kept/summed, paise)`,
          },
          {
            check: 'network-clearing',
            detail: `clearing of network ${employeeId}: 700/0 (kept/summed, paise)`,
          },
        ].sort((a, b) => a.detail.localeCompare(b.detail)),
      ]);
    } finally {
      await rows('update network_commission_days set amount_paise = $3 where scope_id = $1 and day = $2', [
        distributorId,
        day.day,
        paise,
      ]);
      await rows('delete from network_clearing where scope_id = any($1::uuid[])', [[retailerId, employeeId]]);
      await rows('insert into network_clearing (scope_id, clearing_paise) values ($1, $2)', [
        retailerId,
        clearing,
      ]);
    }
    expect(await reconcile()).toMatchObject({ ok: true, breaks: [] });
  });

  it('are filled from the postings and the wallets written before the migration that keeps them', async () => {
    const days = `select scope_id, day::text, amount_paise::text from network_commission_days order by 1, 2`;
    const clearing = `select scope_id, clearing_paise::text from network_clearing order by 1`;
    const want = {
      days: await rows(
        `select scope_id, day::text, amount_paise::text from (${NETWORK_COMMISSION_DAYS}) s order by 1, 2`,
      ),
      clearing: await rows(`select scope_id, clearing_paise::text from (${NETWORK_CLEARING}) s order by 1`),
    };
    expect(want.days.length).toBeGreaterThan(8);
    expect(want.clearing.length).toBeGreaterThan(4);
    expect({ days: await rows(days), clearing: await rows(clearing) }).toEqual(want);
    // Back to the schema before migration 0012: what it drops put back, what it creates dropped, the postings left
    // as they are, and every later migration undone before it, newest first; then migrated again.
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'));
    const whenOf = (tag: string): number => journal.entries.find((e: { tag: string }) => e.tag === tag).when;
    const [last] = await rows<{ created_at: string }>(
      'select created_at from drizzle.__drizzle_migrations order by id desc limit 1',
    );
    expect(Number(last.created_at), 'a later migration would have to be undone too').toBe(
      whenOf(UNDO_AFTER_0012[0][0]),
    );
    for (const [tag, statements] of UNDO_AFTER_0012) {
      for (const statement of statements) await rows(statement);
      await ctx.database.db.execute(
        sql`delete from drizzle.__drizzle_migrations where created_at = ${whenOf(tag)}`,
      );
    }
    const entry = { when: whenOf('0012_network_money') };
    await rows('drop table network_commission_days, network_clearing');
    await rows(`create table commission_months (month date not null, user_id uuid not null references users(id),
      amount_paise bigint not null, primary key (month, user_id))`);
    await rows(`create index postings_commission_created_idx on postings (created_at, user_id, amount_paise)
      where kind = 'COMMISSION'`);
    await ctx.database.db.execute(
      sql`delete from drizzle.__drizzle_migrations where created_at = ${entry.when}`,
    );
    await migrate(ctx.database.db, { migrationsFolder: MIGRATIONS_DIR });
    expect({ days: await rows(days), clearing: await rows(clearing) }).toEqual(want);
    expect(await reconcile()).toMatchObject({ ok: true, breaks: [] });
  });
});
