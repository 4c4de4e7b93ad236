// A list's statement is built once per filter shape and kept, its values bound as placeholders (db/list.ts):
// every call of a kept shape must still answer with its own caller's network, filter, search and page. Each
// answer here is checked against the same rows read straight from the tables, with calls of one shape from
// different callers interleaved and run at once. Runs on PGlite and, with DATABASE_URL, on PostgreSQL.

import { eq, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bindings, keyFields, listPage, written, writtenChoice } from '../../src/server/db/list';
import { users } from '../../src/server/db/schema';
import { inTransaction } from '../../src/server/db/transaction';
import { post } from '../../src/server/modules/ledger/ledger';
import { TRANSACTION_TYPES } from '../../src/shared/enums';
import { verhoeffDigit } from '../../src/shared/identity';
import { call, DEMO_PASSWORD, login, makeScaledContext, recountTiles, type TestContext } from './helpers';

let ctx: TestContext;
let admin: string;

beforeAll(async () => {
  ctx = await makeScaledContext();
  admin = (await login(ctx.app, ctx.config.adminUsername, ctx.config.adminPassword)).token;
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

const rows = async (text: string, values: unknown[] = []) =>
  (await ctx.database.pool.query(text, values)).rows as Record<string, unknown>[];
const ids = (list: Record<string, unknown>[]) => list.map((r) => String(r.id));

async function get(token: string, path: string, query: Record<string, string>) {
  const res = await call(ctx.app, 'GET', path, { token, query });
  expect(res.status, `${path} ${JSON.stringify(query)}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.result;
}

/** Users of a type under `parent` (a parent column), one page newest first, and how many there are. */
async function expectedUsers(type: number, page: number, where = 'true', values: unknown[] = []) {
  const filter = `type = $1 and ${where}`;
  const list = await rows(
    `select id from users where ${filter} order by created_at desc, id desc limit 10 offset ${(page - 1) * 10}`,
    [type, ...values],
  );
  const [{ n }] = await rows(`select count(*)::int as n from users where ${filter}`, [type, ...values]);
  return { ids: ids(list), total: Number(n) };
}

/** A seeded tier user (id, mobile), signed in. */
const signIn = async (u: Record<string, unknown>) => ({
  id: String(u.id),
  token: (await login(ctx.app, String(u.mobile), DEMO_PASSWORD)).token,
});

/**
 * Each caller's first page of a list (twice over, so the second round runs the kept statement) equals its rows
 * read straight from the table: `text` selects their ids with the caller's id as $1.
 */
async function expectOwnPages(
  callers: { id: string; token: string }[],
  path: string,
  field: string,
  text: string,
) {
  for (const caller of [...callers, ...callers]) {
    const result = await get(caller.token, path, { limit: '10' });
    const want = await rows(text, [caller.id]);
    expect(result[field].map((r: { _id: string }) => r._id)).toEqual(ids(want));
  }
}

/** Two master distributors with distributors and three retailers with customers, each signed in. */
async function tierUsers() {
  const mds = await rows(
    `select id, mobile from users m where type = 2 and exists (select 1 from users d where d.master_distributor_id = m.id and d.type = 3) order by created_at limit 2`,
  );
  const retailers = await rows(
    `select id, mobile from users r where type = 4 and exists (select 1 from users c where c.retailer_id = r.id) order by created_at limit 3`,
  );
  return {
    mds: await Promise.all(mds.map(signIn)),
    retailers: await Promise.all(retailers.map(signIn)),
  };
}

describe('a kept list statement answers every call with its own values', () => {
  it('gives each master distributor and retailer its own network, page and total, interleaved and at once', async () => {
    const { mds, retailers } = await tierUsers();
    expect(mds.length).toBe(2);
    expect(retailers.length).toBe(3);
    const asks = [
      ...mds.flatMap((md) =>
        [1, 2].map((page) => ({
          token: md.token,
          query: { type: '3', page: String(page), limit: '10' },
          expected: () => expectedUsers(3, page, 'master_distributor_id = $2', [md.id]),
        })),
      ),
      ...mds.map((md) => ({
        token: md.token,
        query: { type: '1', page: '1', limit: '10' },
        expected: () => expectedUsers(1, 1, 'master_distributor_id = $2', [md.id]),
      })),
      ...retailers.map((r) => ({
        token: r.token,
        query: { type: '1', page: '1', limit: '10' },
        expected: () => expectedUsers(1, 1, 'retailer_id = $2', [r.id]),
      })),
    ];
    const check = async (ask: (typeof asks)[number]) => {
      const result = await get(ask.token, 'account/fetch', ask.query);
      const want = await ask.expected();
      expect(result.users.map((u: { _id: string }) => u._id)).toEqual(want.ids);
      expect(result.totalCounts).toBe(want.total);
    };
    // One after the other, twice over (the second round runs the kept statements), then all at once.
    for (let round = 0; round < 2; round++) for (const ask of asks) await check(ask);
    await Promise.all([...asks, ...asks].map(check));
  });

  it('answers each search with its own matches and pages, a typeahead and an Aadhar number included', async () => {
    const names = await rows(
      `select split_part(name, ' ', 2) as part from users where type = 1 group by 1 order by count(*) desc limit 3`,
    );
    const searches = names.map((r) => String(r.part).toLowerCase());
    const expectedSearch = (text: string, type = 1, page = 1) =>
      expectedUsers(type, page, 'search like $2', [`%${text.toLowerCase()}%`]);
    // The retailers' typeahead: 7-digit prefixes of three retailers' mobile numbers; and digits from the middle
    // and the end of mobile numbers (found through the index of runs of digits, as the same substrings).
    const mobiles = (
      await rows(`select mobile from users where type = 4 order by created_at desc limit 3`)
    ).map((r) => String(r.mobile));
    const typed = mobiles.map((mobile) => mobile.slice(0, 7));
    const [customerMobile] = (
      await rows(`select mobile from users where type = 1 order by created_at limit 1`)
    ).map((r) => String(r.mobile));
    const asks = [
      ...searches.flatMap((text) => [1, 2].map((page) => ({ text, type: 1, page }))),
      ...typed.map((text) => ({ text, type: 4, page: 1 })),
      { text: mobiles[0].slice(3, 9), type: 4, page: 1 },
      { text: mobiles[1].slice(-4), type: 4, page: 1 },
      { text: customerMobile.slice(-5), type: 1, page: 1 },
      { text: customerMobile, type: 1, page: 1 },
      // Letters through the letter runs' index (a retailer's shop), and letters every user holds (the e-mail
      // domain), which go to the LIKE instead (common-grams.ts): the same matches either way.
      { text: 'xerox', type: 4, page: 1 },
      { text: 'Kirana', type: 4, page: 2 },
      { text: 'scale', type: 1, page: 1 },
      { text: 'scale', type: 1, page: 3 },
    ];
    for (let round = 0; round < 2; round++)
      for (const { text, type, page } of asks) {
        const result = await get(admin, 'account/fetch', {
          type: String(type),
          page: String(page),
          limit: '10',
          searchText: text,
        });
        const want = await expectedSearch(text, type, page);
        // Each search finds something, so an answer of nothing could not pass for a right one.
        expect(want.ids.length, text).toBeGreaterThan(0);
        expect(
          result.users.map((u: { _id: string }) => u._id),
          text,
        ).toEqual(want.ids);
        expect(result.totalCounts, text).toBe(Math.min(want.total, 1000));
      }
    // A search's page past its last: no rows, and its own (capped) count, read by a statement of its own.
    for (const text of searches) {
      const result = await get(admin, 'account/fetch', {
        type: '1',
        page: '900',
        limit: '10',
        searchText: text,
      });
      expect(result.users, text).toEqual([]);
      expect(result.totalCounts, text).toBe(Math.min((await expectedSearch(text)).total, 1000));
    }
    // Aadhar numbers: each finds its one customer, through the same kept statement.
    const customers = await rows(
      `select id, aadhar_hash from users where type = 1 and aadhar_hash is not null limit 400`,
    );
    for (const n of [1, 2, 3, 1]) {
      const base = `3${String(n).padStart(10, '0')}`;
      const number = `${base}${verhoeffDigit(base)}`;
      const owner = customers.find((c) => c.aadhar_hash === ctx.cipher.searchHash(number));
      expect(owner, number).toBeDefined();
      const result = await get(admin, 'account/fetch', {
        type: '1',
        page: '1',
        limit: '10',
        searchText: number,
      });
      expect(result.users.map((u: { _id: string }) => u._id)).toEqual([owner?.id]);
      expect(result.totalCounts).toBe(1);
    }
  });

  it('answers transactions by user, by type and a wallet’s own postings with their own rows', async () => {
    const holders = await rows(
      `select user_id as id, count(*)::int as n from postings group by user_id order by count(*) desc limit 3`,
    );
    expect(holders.length).toBe(3);
    for (let round = 0; round < 2; round++) {
      for (const holder of holders) {
        const result = await get(admin, 'transactions/fetch', { userId: String(holder.id), limit: '10' });
        const want = await rows(
          `select id from postings where user_id = $1 order by created_at desc, id desc limit 10`,
          [holder.id],
        );
        expect(result.transactions.map((t: { _id: string }) => t._id)).toEqual(ids(want));
        expect(result.totalCounts).toBe(holder.n);
      }
      for (const userType of ['2', '4']) {
        const result = await get(admin, 'transactions/fetch', { userType, limit: '10', page: '2' });
        const want = await rows(
          `select id from postings where user_type = $1 order by created_at desc, id desc limit 10 offset 10`,
          [Number(userType)],
        );
        expect(result.transactions.map((t: { _id: string }) => t._id)).toEqual(ids(want));
      }
    }
    const { retailers } = await tierUsers();
    await expectOwnPages(
      retailers,
      'wallet/fetch',
      'transactions',
      `select id from postings where user_id = $1 order by created_at desc, id desc limit 10`,
    );
  });

  it('gives each retailer its own sales', async () => {
    const sellers = await rows(
      `select r.id, r.mobile from users r where type = 4 and exists (select 1 from bought_products s where s.retailer_id = r.id) order by created_at limit 3`,
    );
    expect(sellers.length).toBe(3);
    await expectOwnPages(
      await Promise.all(sellers.map(signIn)),
      'bought_products/fetch',
      'boughtProducts',
      `select id from bought_products where retailer_id = $1 order by created_at desc, id desc limit 10`,
    );
  });

  it('answers a page past the last with no rows and the filter’s own total', async () => {
    const { mds } = await tierUsers();
    for (const md of mds) {
      const want = await expectedUsers(3, 1, 'master_distributor_id = $2', [md.id]);
      const result = await get(md.token, 'account/fetch', { type: '3', page: '500', limit: '10' });
      expect(result.users).toEqual([]);
      expect(result.totalCounts).toBe(want.total);
    }
  });

  it('never keeps a statement that holds an unbound value: the next call’s value is not replaced by the first', async () => {
    // The same list, its type filter written in as a value (not bound) or bound as a placeholder: both must
    // answer every type with its own users. Unbound, every type gives the same statement text ($1), so a kept
    // statement would answer the first type's users to every later call.
    const listOf = (type: number, bind: boolean) => {
      const bindings = new Bindings();
      return listPage(ctx.database.db, {
        statement: `test: users by a type ${bind ? 'bound' : 'written in'}`,
        bindings,
        keys: (sortKey) => ctx.database.db.select(keyFields(users.id, sortKey)).from(users).$dynamic(),
        rows: (found, order, total) =>
          ctx.database.db
            .select({ total, id: users.id })
            .from(found.keys)
            .innerJoin(users, eq(users.id, found.id))
            .orderBy(...order),
        where: eq(users.type, bind ? bindings.bind(type) : type),
        page: { limit: 10, offset: 0 },
        sort: { columns: { createdAt: users.createdAt }, default: 'createdAt', id: users.id },
        total: 'capped',
      });
    };
    for (let round = 0; round < 2; round++)
      for (const type of [2, 3, 4])
        for (const bind of [false, true]) {
          const page = await listOf(type, bind);
          const want = await expectedUsers(type, 1);
          expect(
            page.rows.map((r) => r.id),
            `type ${type}, bound: ${bind}`,
          ).toEqual(want.ids);
          expect(page.total).toBe(Math.min(want.total, 1000));
        }
  });
});

/**
 * A runs' index function (`grams`) against LIKE: on texts like a search column's (runs of `run` characters of any
 * length beside `others`) and searches of `shortest` to 12 of those characters, half of them taken from the text
 * itself, the function's list holds the search exactly when the text holds it as a substring.
 */
async function gramsMatchSubstrings(grams: string, run: string, others: string[], shortest: number) {
  const text = fc
    .array(fc.oneof(fc.stringMatching(new RegExp(`^${run}{1,16}$`)), fc.constantFrom(...others)), {
      maxLength: 12,
    })
    .map((parts) => parts.join(''));
  const runs = new RegExp(`${run}{${shortest},}`, 'g');
  const sample = fc.oneof(
    fc.tuple(text, fc.stringMatching(new RegExp(`^${run}{${shortest},12}$`))),
    fc
      .tuple(text, fc.nat(), fc.integer({ min: shortest, max: 12 }))
      .filter(([t]) => (t.match(runs) ?? []).length > 0)
      .map(([t, at, n]): [string, string] => {
        const inText = t.match(runs) ?? [];
        const one = inText[at % inText.length];
        const length = Math.min(n, one.length);
        const from = at % (one.length - length + 1);
        return [t, one.slice(from, from + length)];
      }),
  );
  let found = 0;
  let missed = 0;
  await fc.assert(
    fc.asyncProperty(sample, async ([search, q]) => {
      const [row] = await rows(
        `select ${grams}($1) @> array[$2::text] as by_runs, $1 like '%' || $2 || '%' as by_substring`,
        [search, q],
      );
      if (row.by_substring) found++;
      else missed++;
      expect(row.by_runs, `${JSON.stringify(search)} / ${q}`).toBe(row.by_substring);
    }),
    { numRuns: 300 },
  );
  // Both answers occur among the samples, so the property was not checked on misses alone.
  expect(found).toBeGreaterThan(50);
  expect(missed).toBeGreaterThan(50);
}

describe('a search of digits', () => {
  it('matches through the index of runs of digits exactly what the substring search matches', async () => {
    // search_digit_grams (migration 0009): runs of digits beside letters and punctuation, searches of 4 to 12.
    await gramsMatchSubstrings('search_digit_grams', '[0-9]', [' ', '@', '.', 'a', 'k', 'in'], 4);
  });
});

describe('a search of letters', () => {
  it('matches through the index of runs of letters exactly what the substring search matches', async () => {
    // search_letter_grams (migration 0013): runs of letters beside digits, punctuation and a letter outside a to z,
    // searches of 3 to 12. Few letters, so that a random search often occurs.
    await gramsMatchSubstrings('search_letter_grams', '[a-e]', [' ', '@', '.', '9', '42', 'é'], 3);
  });
});

describe('the dashboard’s money tiles', () => {
  it('equal a recount from every posting and wallet, for the admin, master distributors and retailers', async () => {
    const { mds, retailers } = await tierUsers();
    // A commission of a retailer made now through the ledger, beside the seeded ones (bulk-copied, their network
    // rows summed once): the network has money in each tile, today's included, whatever the seed's random
    // timeline left in clearing, so a tile answering zero could not pass.
    await inTransaction(ctx.database.db, (tx) =>
      post(
        tx,
        [
          {
            userId: retailers[0].id,
            kind: 'COMMISSION',
            transactionType: 'CREDIT',
            balanceType: 'CLEARING',
            status: 'CLEARING',
            amountPaise: 1_234,
          },
        ],
        { ledgerKey: ctx.ledgerKey },
      ),
    );
    const recount = (prefix: string) => recountTiles(ctx.database, prefix);
    const pathOf = async (id: string) =>
      String((await rows(`select path from users where id = $1`, [id]))[0].path);
    const whole = await recount('/');
    expect(whole.today).toBeGreaterThan(0);
    expect(whole.month).toBeGreaterThan(0);
    expect(whole.clearing).toBeGreaterThan(0);
    expect((await get(admin, 'report/commissions', {})).commissions).toEqual(whole);
    for (const user of [...mds, ...retailers]) {
      const want = await recount(await pathOf(user.id));
      expect((await get(user.token, 'report/commissions', {})).commissions, user.id).toEqual(want);
    }
  });
});

describe('what a list writes into its text instead of binding', () => {
  const textOf = (fragment: unknown) => new PgDialect().sqlToQuery(sql`${fragment}`);

  it('writes a whole number or one of an enum’s values, and nothing else', () => {
    expect(textOf(written(10))).toEqual({ sql: '10', params: [] });
    expect(textOf(writtenChoice('DEBIT', TRANSACTION_TYPES))).toEqual({ sql: "'DEBIT'", params: [] });
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 60])
      expect(() => written(bad), String(bad)).toThrow(
        `only a whole number is written into a statement: ${bad}`,
      );
    for (const bad of ["DEBIT' or '1'='1", 'debit', ''])
      expect(() => writtenChoice(bad as 'DEBIT', TRANSACTION_TYPES), bad).toThrow(
        `only one of CREDIT, DEBIT is written into a statement: ${bad}`,
      );
  });
});
