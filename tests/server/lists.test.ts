// Every list's pages equal the same list read straight from the database: its first and last page, on both
// sides of the count cap, for each viewer that sees a different network, with the calls of one list run at
// once. The reads here are plain SQL written apart from the server's statements (the oracle). Runs on PGlite
// and, with DATABASE_URL, on PostgreSQL.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CAP } from '../../src/server/db/list';
import { inTransaction } from '../../src/server/db/transaction';
import { post } from '../../src/server/modules/ledger/ledger';
import { call, DEMO_PASSWORD, login, makeScaledContext, recountTiles, type TestContext } from './helpers';

let ctx: TestContext;
const tokens: Record<'admin' | 'md' | 'retailer', string> = { admin: '', md: '', retailer: '' };
const ids: Record<'md' | 'retailer' | 'customer', string> = { md: '', retailer: '', customer: '' };
let mobileDigits = '';
let nameFragment = '';
/** A range of days (India's calendar) holding some of the postings, below the cap: FROM and TO. */
const days = { from: '', to: '' };

const rows = async (text: string, values: unknown[] = []) =>
  (await ctx.database.pool.query(text, values)).rows as Record<string, unknown>[];

beforeAll(async () => {
  ctx = await makeScaledContext();
  tokens.admin = (await login(ctx.app, ctx.config.adminUsername, ctx.config.adminPassword)).token;
  const [md] = await rows(
    `select id, mobile from users m where type = 2 and exists (select 1 from users d where d.master_distributor_id = m.id and d.type = 3) order by created_at limit 1`,
  );
  const [retailer] = await rows(
    `select r.id, r.mobile from users r where r.type = 4
      and exists (select 1 from users c where c.retailer_id = r.id)
      and exists (select 1 from bought_products s where s.retailer_id = r.id)
      and exists (select 1 from postings p where p.user_id = r.id)
      order by r.created_at limit 1`,
  );
  const [customer] = await rows(`select id, mobile from users where type = 1 order by created_at limit 1`);
  ids.md = String(md.id);
  ids.retailer = String(retailer.id);
  ids.customer = String(customer.id);
  mobileDigits = String(customer.mobile).slice(-6);
  // A customer who bought something: the last word of its name.
  const [buyer] = await rows(
    `select c.name from bought_products s join users c on c.id = s.customer_id order by s.created_at limit 1`,
  );
  nameFragment = String(buyer.name).split(' ').at(-1) ?? '';
  // The newest days whose postings stay below the cap, at least two of them.
  const perDay = await rows(
    `select to_char((created_at at time zone 'Asia/Kolkata')::date, 'YYYY-MM-DD') as day, count(*)::int as n
      from postings group by 1 order by 1 desc`,
  );
  let held = 0;
  for (const [i, { day, n }] of perDay.entries()) {
    if (i >= 2 && held + Number(n) > COUNT_CAP * 0.8) break;
    held += Number(n);
    days.from = String(day);
    if (i === 0) days.to = String(day);
  }
  tokens.md = (await login(ctx.app, String(md.mobile), DEMO_PASSWORD)).token;
  tokens.retailer = (await login(ctx.app, String(retailer.mobile), DEMO_PASSWORD)).token;
  // Sales past the cap: copies of the seeded ones, a day older, each with its own UTM code.
  const columns = (
    await rows(
      `select column_name from information_schema.columns where table_name = 'bought_products'
        and is_generated = 'NEVER' and column_name not in ('id', 'utm_code', 'created_at') order by ordinal_position`,
    )
  ).map((r) => `"${String(r.column_name)}"`);
  await rows(
    `insert into bought_products (utm_code, created_at, ${columns.join(', ')})
      select s.utm_code || '-' || i, s.created_at - make_interval(days => i), ${columns.map((c) => `s.${c}`).join(', ')}
      from bought_products s, generate_series(1, ${Math.ceil(COUNT_CAP / 200)}) as i`,
  );
  // The audit trail past the cap, and applications below it (the scale seed writes neither).
  await rows(
    `insert into audit_log (actor_kind, actor_name, action, entity, created_at)
      select 'SYSTEM', 'bench', 'test.row', case when i % 3 = 0 then 'lead' else 'sale' end,
        now() - make_interval(secs => i)
      from generate_series(1, ${COUNT_CAP + 200}) as i`,
  );
  await rows(
    `insert into stored_files (id, content_type, size) values ('p', 'image/png', 1), ('d', 'application/pdf', 1)`,
  );
  await rows(
    `insert into leads (lead_type, applicant_name, establishment_name, mobile, state_id, district_id, tehsil_id,
        sections, aadhar_cipher, aadhar_hash, aadhar_last4, picture_file, picture_mime, picture_size, document_file,
        document_mime, document_size, document_name, created_at)
      select 'RETAILER', 'Applicant ' || i, 'Shop ' || i, '90000' || lpad(i::text, 5, '0'), t.state_id, t.district_id,
        t.id, '{}'::jsonb, 'x', 'h' || i, '0000', 'p', 'image/png', 1, 'd', 'application/pdf', 1, 'd.pdf',
        now() - make_interval(secs => i)
      from generate_series(1, 37) as i,
        (select tehsils.id, tehsils.district_id, districts.state_id from tehsils
          join districts on districts.id = tehsils.district_id limit 1) as t`,
  );
}, 180_000);

afterAll(async () => {
  await ctx?.close();
});

interface ListCase {
  name: string;
  viewer: keyof typeof tokens;
  path: string;
  query: Record<string, string>;
  /** The answer's key holding the page. */
  key: string;
  /** The list's ids in its order, straight from the tables: `$1`... are `values`. */
  oracle: string;
  values?: () => unknown[];
  /** Which side of the cap the list's matches are on (`exact`: a kept or exact total, whatever its size). */
  side: 'below' | 'above' | 'exact';
}

const newest = 'order by created_at desc, id desc';
const usersOf = (where: string) => `select id from users where ${where} ${newest}`;
const CASES: ListCase[] = [
  // People: a kept total per type and network, a capped search, a search of digits through its own index.
  {
    name: 'customers',
    viewer: 'admin',
    path: 'account/fetch',
    query: { type: '1' },
    key: 'users',
    oracle: usersOf('type = 1'),
    side: 'exact',
  },
  {
    name: 'master distributors',
    viewer: 'admin',
    path: 'account/fetch',
    query: { type: '2' },
    key: 'users',
    oracle: usersOf('type = 2'),
    side: 'exact',
  },
  {
    name: 'customers named with an a',
    viewer: 'admin',
    path: 'account/fetch',
    query: { type: '1', searchText: 'A' },
    key: 'users',
    oracle: usersOf(`type = 1 and search like '%a%'`),
    side: 'above',
  },
  {
    name: 'customers by mobile digits',
    viewer: 'admin',
    path: 'account/fetch',
    query: { type: '1', searchText: 'MOBILE' },
    key: 'users',
    oracle: usersOf(`type = 1 and search like '%' || $1 || '%'`),
    values: () => [mobileDigits],
    side: 'below',
  },
  {
    name: "an MD's retailers",
    viewer: 'md',
    path: 'account/fetch',
    query: { type: '4' },
    key: 'users',
    oracle: usersOf('type = 4 and master_distributor_id = $1'),
    values: () => [ids.md],
    side: 'exact',
  },
  {
    name: "an MD's customers with an e",
    viewer: 'md',
    path: 'account/fetch',
    query: { type: '1', searchText: 'e' },
    key: 'users',
    oracle: usersOf(`type = 1 and master_distributor_id = $1 and search like '%e%'`),
    values: () => [ids.md],
    side: 'below',
  },
  {
    name: "a retailer's customers",
    viewer: 'retailer',
    path: 'account/fetch',
    query: { type: '1' },
    key: 'users',
    oracle: usersOf('type = 1 and retailer_id = $1'),
    values: () => [ids.retailer],
    side: 'exact',
  },
  // Sales.
  {
    name: 'sales',
    viewer: 'admin',
    path: 'bought_products/fetch',
    query: {},
    key: 'boughtProducts',
    oracle: `select id from bought_products ${newest}`,
    side: 'above',
  },
  {
    name: 'sales by status',
    viewer: 'admin',
    path: 'bought_products/fetch',
    query: { status: 'FAILED' },
    key: 'boughtProducts',
    oracle: `select id from bought_products where status = 'FAILED' ${newest}`,
    side: 'below',
  },
  {
    name: 'sales searched by a customer name',
    viewer: 'admin',
    path: 'bought_products/fetch',
    query: { searchText: 'NAME' },
    key: 'boughtProducts',
    oracle: `select s.id from bought_products s join users c on c.id = s.customer_id
      where s.utm_code ilike '%' || $1 || '%' or c.name ilike '%' || $1 || '%' order by s.created_at desc, s.id desc`,
    values: () => [nameFragment],
    side: 'below',
  },
  {
    name: "a retailer's sales",
    viewer: 'retailer',
    path: 'bought_products/fetch',
    query: {},
    key: 'boughtProducts',
    oracle: `select id from bought_products where retailer_id = $1 ${newest}`,
    values: () => [ids.retailer],
    side: 'below',
  },
  // Transactions (postings).
  {
    name: 'transactions',
    viewer: 'admin',
    path: 'transactions/fetch',
    query: {},
    key: 'transactions',
    oracle: `select id from postings ${newest}`,
    side: 'above',
  },
  {
    name: 'transactions of retailers, debits',
    viewer: 'admin',
    path: 'transactions/fetch',
    query: { userType: '4', transactionType: 'DEBIT' },
    key: 'transactions',
    oracle: `select id from postings where user_type = 4 and transaction_type = 'DEBIT' ${newest}`,
    side: 'below',
  },
  {
    name: "a retailer's transactions",
    viewer: 'admin',
    path: 'transactions/fetch',
    query: { userId: 'RETAILER' },
    key: 'transactions',
    oracle: `select id from postings where user_id = $1 ${newest}`,
    values: () => [ids.retailer],
    side: 'exact',
  },
  {
    name: 'transactions in a range of days',
    viewer: 'admin',
    path: 'transactions/fetch',
    query: { from: 'FROM', to: 'TO' },
    key: 'transactions',
    oracle: `select id from postings
      where (created_at at time zone 'Asia/Kolkata')::date between $1::date and $2::date ${newest}`,
    values: () => [days.from, days.to],
    side: 'below',
  },
  {
    name: 'transactions of customers since a day',
    viewer: 'admin',
    path: 'transactions/fetch',
    query: { userType: '1', from: 'FROM' },
    key: 'transactions',
    oracle: `select id from postings
      where user_type = 1 and (created_at at time zone 'Asia/Kolkata')::date >= $1::date ${newest}`,
    values: () => [days.from],
    side: 'below',
  },
  {
    name: "a retailer's transactions up to a day",
    viewer: 'admin',
    path: 'transactions/fetch',
    query: { userId: 'RETAILER', to: 'TO' },
    key: 'transactions',
    oracle: `select id from postings
      where user_id = $1 and (created_at at time zone 'Asia/Kolkata')::date <= $2::date ${newest}`,
    values: () => [ids.retailer, days.to],
    side: 'below',
  },
  {
    name: "a retailer's own wallet up to a day",
    viewer: 'retailer',
    path: 'wallet/fetch',
    query: { to: 'TO' },
    key: 'transactions',
    oracle: `select id from postings
      where user_id = $1 and (created_at at time zone 'Asia/Kolkata')::date <= $2::date ${newest}`,
    values: () => [ids.retailer, days.to],
    side: 'below',
  },
  {
    name: "a retailer's own wallet",
    viewer: 'retailer',
    path: 'wallet/fetch',
    query: {},
    key: 'transactions',
    oracle: `select id from postings where user_id = $1 ${newest}`,
    values: () => [ids.retailer],
    side: 'exact',
  },
  {
    name: "a retailer's own credits",
    viewer: 'retailer',
    path: 'wallet/fetch',
    query: { transactionType: 'CREDIT' },
    key: 'transactions',
    oracle: `select id from postings where user_id = $1 and transaction_type = 'CREDIT' ${newest}`,
    values: () => [ids.retailer],
    side: 'below',
  },
  // The audit trail, applications and locations.
  {
    name: 'audit trail',
    viewer: 'admin',
    path: 'audit/fetch',
    query: {},
    key: 'audit',
    oracle: `select id from audit_log ${newest}`,
    side: 'above',
  },
  {
    name: 'audit trail of leads',
    viewer: 'admin',
    path: 'audit/fetch',
    query: { entity: 'lead' },
    key: 'audit',
    oracle: `select id from audit_log where entity = 'lead' ${newest}`,
    side: 'below',
  },
  {
    name: 'leads',
    viewer: 'admin',
    path: 'leads/fetch',
    query: {},
    key: 'leads',
    oracle: `select id from leads ${newest}`,
    side: 'below',
  },
  {
    name: 'districts',
    viewer: 'admin',
    path: 'districts/fetch',
    query: {},
    key: 'districts',
    oracle: `select id from districts ${newest}`,
    side: 'below',
  },
  {
    name: 'tehsils by name',
    viewer: 'admin',
    path: 'tehsil/fetch',
    query: { sort: 'name', order: 'ASC' },
    key: 'tehsil',
    oracle: `select id from tehsils order by lower(name), id`,
    side: 'exact',
  },
];

/** A case's query with its placeholders filled: MOBILE and NAME (a customer's), RETAILER (its id), FROM and TO. */
const queryOf = (c: ListCase) =>
  Object.fromEntries(
    Object.entries(c.query).map(([k, v]) => [
      k,
      { MOBILE: mobileDigits, RETAILER: ids.retailer, NAME: nameFragment, FROM: days.from, TO: days.to }[v] ??
        v,
    ]),
  );

async function page(c: ListCase, n: number, limit: number) {
  const res = await call(ctx.app, 'GET', c.path, {
    token: tokens[c.viewer],
    query: { ...queryOf(c), page: String(n), limit: String(limit) },
  });
  expect(res.status, `${c.name} page ${n}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.result as Record<string, unknown> & { totalCounts: number; totalCountsCapped?: true };
}

describe('every list, read from either end', () => {
  it.each(CASES.map((c) => [c.name, c] as const))(
    '%s: first and last pages equal the list read straight from the database',
    async (_name, c) => {
      const all = (await rows(c.oracle, c.values?.() ?? [])).map((r) => String(r.id));
      const n = all.length;
      expect(n, `${c.name}: the case needs rows`).toBeGreaterThan(0);
      if (c.side === 'above') expect(n, `${c.name} is past the cap`).toBeGreaterThan(COUNT_CAP);
      if (c.side === 'below') expect(n, `${c.name} is below the cap`).toBeLessThanOrEqual(COUNT_CAP);
      const total = c.side === 'above' ? COUNT_CAP : n;
      for (const limit of [10, 7]) {
        const last = Math.ceil(total / limit);
        // The pages of one list at once: first, second, last and one past the end.
        const [first, second, end, past] = await Promise.all(
          [1, 2, last, last + 1].map((at) => page(c, at, limit)),
        );
        const idsOf = (result: Record<string, unknown>) =>
          (result[c.key] as { _id: string }[]).map((item) => item._id);
        expect(idsOf(first), `${c.name} first page of ${limit}`).toEqual(all.slice(0, limit));
        expect(idsOf(second), `${c.name} second page of ${limit}`).toEqual(all.slice(limit, 2 * limit));
        expect(idsOf(end), `${c.name} last page ${last} of ${limit}`).toEqual(
          all.slice((last - 1) * limit, last * limit),
        );
        if (c.side !== 'above') expect(idsOf(past), `${c.name} past the end`).toEqual([]);
        for (const result of [first, second, end, ...(c.side === 'above' ? [] : [past])]) {
          expect(result.totalCounts, `${c.name} total`).toBe(total);
          expect(result.totalCountsCapped, `${c.name} capped`).toBe(c.side === 'above' ? true : undefined);
        }
      }
    },
  );

  it('gives each viewer its own page when the same list is called by several at once', async () => {
    const cases = CASES.filter((c) => c.path === 'account/fetch' && c.side === 'exact');
    const answers = await Promise.all([...cases, ...cases].map((c) => page(c, 1, 10)));
    for (const [i, c] of [...cases, ...cases].entries()) {
      const want = (await rows(c.oracle, c.values?.() ?? [])).slice(0, 10).map((r) => String(r.id));
      expect(
        (answers[i].users as { _id: string }[]).map((u) => u._id),
        c.name,
      ).toEqual(want);
    }
  });
});

describe('a search of digits', () => {
  it('matches through the index of runs of digits exactly what the substring search matches', async () => {
    // search_digit_grams (migration 0009): runs of digits beside letters and punctuation, searches of 4 to 12.
    const others = [' ', '@', '.', 'a', 'k', 'in'];
    const text = fc
      .array(fc.oneof(fc.stringMatching(/^[0-9]{1,16}$/), fc.constantFrom(...others)), { maxLength: 12 })
      .map((parts) => parts.join(''));
    const runs = /[0-9]{4,}/g;
    const sample = fc.oneof(
      fc.tuple(text, fc.stringMatching(/^[0-9]{4,12}$/)),
      fc
        .tuple(text, fc.nat(), fc.integer({ min: 4, max: 12 }))
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
          `select search_digit_grams($1) @> array[$2::text] as by_runs, $1 like '%' || $2 || '%' as by_substring`,
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
  });
});

describe('the dashboard’s money tiles', () => {
  it('equal a recount from every posting and wallet, for the admin, a master distributor and a retailer', async () => {
    // A commission of the retailer made now through the ledger, beside the seeded ones: the network has money in
    // each tile, today's included, so a tile answering zero could not pass.
    await inTransaction(ctx.database.db, (tx) =>
      post(
        tx,
        [
          {
            userId: ids.retailer,
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
    const pathOf = async (id: string) =>
      String((await rows(`select path from users where id = $1`, [id]))[0].path);
    const whole = await recountTiles(ctx.database, '/');
    expect(whole.today).toBeGreaterThan(0);
    expect(whole.clearing).toBeGreaterThan(0);
    const tiles = async (token: string) =>
      (await call(ctx.app, 'GET', 'report/commissions', { token })).body.result.commissions;
    expect(await tiles(tokens.admin)).toEqual(whole);
    expect(await tiles(tokens.md)).toEqual(await recountTiles(ctx.database, await pathOf(ids.md)));
    expect(await tiles(tokens.retailer)).toEqual(
      await recountTiles(ctx.database, await pathOf(ids.retailer)),
    );
  });
});
