// The people, transactions and sales pages are written as JSON by the database (db/list.ts, listPageJson), and a
// read-only call's session look-up rides in that statement. Here each JSON page is compared with the same page read
// as rows and written by the server's own mappers (toWireUser, toWireTransaction, listSales), byte for byte once
// both are in the wire schema's key order, over rows chosen to be awkward (no wallet, no district, no Aadhar,
// quotes, a new line and an emoji in a name); and the calls are checked to send one statement, not two. Runs on
// PGlite and, with DATABASE_URL, on PostgreSQL.

import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Bindings } from '../../src/server/db/list';
import { postings, users, wallets } from '../../src/server/db/schema';
import { hashToken } from '../../src/server/http/session-token';
import { listWireUsers, listWireUsersJson } from '../../src/server/modules/account/users';
import { listTransactions, listTransactionsOf } from '../../src/server/modules/ledger/queries';
import { listSales, listSalesJson } from '../../src/server/modules/sales/queries';
import { UserType } from '../../src/shared/enums';
import { can, USER_TYPE_RESOURCE } from '../../src/shared/roles';
import { wireSaleSchema, wireTransactionSchema, wireUserSchema } from '../../src/shared/wire';
import { call, login, makeScaledContext, recordStatements, type TestContext } from './helpers';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await makeScaledContext();
  const q = (text: string) => ctx.database.pool.query(text);
  // Rows the seed does not make: each a case the JSON must write as the mappers do.
  await q(
    `update users set aadhar_last4 = null where id = (select id from users where type = 1 order by created_at desc limit 1)`,
  );
  await q(
    `update users set aadhar_last4 = '' where id = (select id from users where type = 1 order by created_at desc offset 1 limit 1)`,
  );
  await q(
    `update users set district_id = null, tehsil_id = null where id = (select id from users where type = 4 order by created_at desc limit 1)`,
  );
  await q(
    `update users set distributor_code = null, is_master = null where id = (select id from users where type = 2 order by created_at desc limit 1)`,
  );
  await q(
    `update users set name = E'Quote "q" \\\\ back\\nline\\ttab é 😀 </script>' where id = (select id from users where type = 3 order by created_at desc limit 1)`,
  );
  await q(
    `update users set email = null where id = (select id from users where type = 1 order by created_at desc offset 2 limit 1)`,
  );
  // A customer with no wallet row (the seed gives every customer a sale, so a wallet).
  await q(
    `delete from wallets where user_id = (select id from users where type = 1 order by created_at desc offset 3 limit 1)`,
  );
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

/** Staff and each tier: each sees its own network. */
const VIEWERS = [UserType.ADMIN, UserType.MASTER_DISTRIBUTOR, UserType.DISTRIBUTOR, UserType.RETAILER];

const viewerOf = async (type: UserType) =>
  (
    await ctx.database.db.select().from(users).where(eq(users.type, type)).orderBy(users.createdAt).limit(1)
  )[0];

/** A page as the schema writes it: key for key in the wire schema's order. */
const written = (schema: z.ZodType, items: unknown[]) => JSON.stringify(z.array(schema).encode(items));
/** JSON text with PostgreSQL's spacing taken out, keys in the order the text has them. */
const compact = (text: string) => JSON.stringify(JSON.parse(text));

describe('a page the database writes as JSON', () => {
  it('is the page the mappers write, for every user type, network, search and page', async () => {
    let compared = 0;
    for (const viewerType of VIEWERS) {
      const viewer = await viewerOf(viewerType);
      for (const type of [0, 1, 2, 3, 4, 5] as UserType[]) {
        if (!can(viewerType, USER_TYPE_RESOURCE[type], 'read')) continue;
        for (const [filter, page] of [
          [{}, { limit: 100, offset: 0 }],
          [{}, { limit: 10, offset: 10 }],
          [{ searchText: 'a' }, { limit: 100, offset: 0 }],
          [{ searchText: '94' }, { limit: 10, offset: 0 }],
        ] as const) {
          const rows = await listWireUsers(ctx.database.db, viewer, { type, ...filter }, page);
          const json = await listWireUsersJson(ctx.database.db, viewer, { type, ...filter }, page);
          const where = `${viewerType} lists ${type} ${JSON.stringify(filter)} ${JSON.stringify(page)}`;
          expect(compact(json.users), where).toBe(written(wireUserSchema, rows.users));
          expect({ total: json.total, capped: json.capped }, where).toEqual({
            total: rows.total,
            capped: rows.capped,
          });
          compared += rows.users.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('writes the awkward rows as the mappers do', async () => {
    const admin = await viewerOf(UserType.ADMIN);
    const db = ctx.database.db;
    const noWallet = await db
      .select({ id: users.id })
      .from(users)
      .leftJoin(wallets, eq(wallets.userId, users.id))
      .where(and(eq(users.type, UserType.CUSTOMER), isNull(wallets.userId)))
      .limit(1);
    expect(noWallet).toHaveLength(1);
    for (const [type, where] of [
      [UserType.CUSTOMER, sql`aadhar_last4 is null`],
      [UserType.CUSTOMER, sql`aadhar_last4 = ''`],
      [UserType.CUSTOMER, sql`email is null`],
      [UserType.CUSTOMER, sql`id = ${noWallet[0].id}`],
      [UserType.RETAILER, sql`district_id is null`],
      [UserType.MASTER_DISTRIBUTOR, sql`distributor_code is null`],
      [UserType.DISTRIBUTOR, sql`name like 'Quote%'`],
    ] as const) {
      const [{ id }] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.type, type), where));
      const page = { limit: 1, offset: 0 };
      const rows = await listWireUsers(db, admin, { type, id }, page);
      const json = await listWireUsersJson(db, admin, { type, id }, page);
      expect(rows.users, `${type} ${id}`).toHaveLength(1);
      expect(compact(json.users), `${type} ${id}`).toBe(written(wireUserSchema, rows.users));
    }
  });

  it('writes transactions and sales as their mappers do, for each network', async () => {
    const db = ctx.database.db;
    const page = { limit: 100, offset: 0 };
    const all = await listTransactionsOf(db, undefined, page);
    const allJson = await listTransactions(db, {}, page);
    expect(all.transactions.length).toBe(100);
    expect(compact(allJson.items)).toBe(written(wireTransactionSchema, all.transactions));
    const [retailer] = await db.select({ id: postings.userId }).from(postings).limit(1);
    const b = new Bindings();
    const own = await listTransactionsOf(db, eq(postings.userId, b.bind(retailer.id)), page, { bindings: b });
    const ownJson = await listTransactions(db, { userId: retailer.id }, page);
    expect(own.transactions.length).toBeGreaterThan(0);
    expect(compact(ownJson.items)).toBe(written(wireTransactionSchema, own.transactions));
    for (const viewerType of VIEWERS) {
      const viewer = await viewerOf(viewerType);
      for (const filter of [{}, { status: 'REVERSED' as const }, { searchText: 'a' }]) {
        const sales = await listSales(db, viewer, filter, page);
        const json = await listSalesJson(db, viewer, filter, page);
        const where = `${viewerType} ${JSON.stringify(filter)}`;
        expect(compact(json.items), where).toBe(written(wireSaleSchema, sales.sales));
        expect({ total: json.total, capped: json.capped }, where).toEqual({
          total: sales.total,
          capped: sales.capped,
        });
      }
    }
    const statuses = new Set(
      (await listSales(db, await viewerOf(UserType.ADMIN), {}, { limit: 100, offset: 0 })).sales.map(
        (s) => s.status,
      ),
    );
    expect(statuses.size).toBeGreaterThan(2);
  });
});

describe('a read-only call’s session look-up', () => {
  /** The statements a call sends to the database. */
  async function statementsOf(token: string, url: string) {
    const sent: string[] = [];
    const stop = recordStatements(ctx.database.pool, ({ text }) => sent.push(text));
    try {
      const [path, search] = url.split('?');
      const res = await call(ctx.app, 'GET', path, {
        token,
        query: Object.fromEntries(new URLSearchParams(search)),
      });
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
      return sent;
    } finally {
      stop();
    }
  }

  it('rides in a JSON page’s or a one-row statement: one statement for the call once its user is known', async () => {
    const { token } = await login(ctx.app, ctx.config.adminUsername, ctx.config.adminPassword);
    for (const url of [
      'account/fetch?type=2&page=1&limit=10',
      'account/fetch?type=1&page=3&limit=10&searchText=a',
      'transactions/fetch?page=1&limit=10',
      'bought_products/fetch?page=1&limit=10',
      'wallet/fetch?page=1&limit=10',
      'report/userCounts',
      'report/commissions',
    ]) {
      // The token's first call has no user to start on: its look-up goes first, on its own.
      const first = await statementsOf(
        (await login(ctx.app, ctx.config.adminUsername, ctx.config.adminPassword)).token,
        url,
      );
      expect(first.filter((text) => text.includes('sessionExpiresAt')).length, url).toBe(1);
      await statementsOf(token, url);
      const sent = (await statementsOf(token, url)).filter((text) => !/^select balance_paise/.test(text));
      expect(sent, url).toHaveLength(1);
      expect(sent[0], url).toContain('sessionExpiresAt');
      expect(sent[0], url).toContain('ridden');
      // Alone or riding, the look-up reads who the caller is, never the caller's secrets.
      for (const text of [first.find((t) => t.includes('sessionExpiresAt')), sent[0]]) {
        const lookup = /"sessionExpiresAt",([\s\S]*?)\s+from sessions /.exec(text ?? '')?.[1];
        expect(lookup, url).toContain('"status"');
        expect(lookup, url).not.toMatch(/password_hash|aadhar|"search"|mobile|email/);
      }
    }
  });

  it('goes on its own beside a call whose statements it cannot ride in', async () => {
    const { token } = await login(ctx.app, ctx.config.adminUsername, ctx.config.adminPassword);
    for (const url of ['audit/fetch?page=1&limit=10', 'leads/fetch?page=1&limit=10', 'account/fetch?_id=']) {
      const target = url.endsWith('_id=') ? `${url}${(await viewerOf(UserType.RETAILER)).id}` : url;
      await statementsOf(token, target);
      const sent = await statementsOf(token, target);
      expect(
        sent.filter((text) => text.includes('sessionExpiresAt')),
        target,
      ).toHaveLength(1);
      expect(sent.length, target).toBeGreaterThan(1);
    }
  });

  it('goes on its own when the statement it rode in fails, and the call answers the session’s refusal', async () => {
    const { token } = await login(ctx.app, ctx.config.adminUsername, ctx.config.adminPassword);
    const url = 'account/fetch?type=2&page=1&limit=10';
    expect((await statementsOf(token, url)).length).toBe(2);
    // The session ends, and the list's statement cannot run: its wallets are gone for the moment.
    await ctx.database.pool.query('delete from sessions where token_hash = $1', [hashToken(token)]);
    await ctx.database.pool.query('alter table wallets rename to wallets_away');
    try {
      const res = await call(ctx.app, 'GET', 'account/fetch', { token, query: { type: '2' } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Invalid session token' });
    } finally {
      await ctx.database.pool.query('alter table wallets_away rename to wallets');
    }
    const again = await login(ctx.app, ctx.config.adminUsername, ctx.config.adminPassword);
    expect(
      (await call(ctx.app, 'GET', 'account/fetch', { token: again.token, query: { type: '2' } })).status,
    ).toBe(200);
  });
});
