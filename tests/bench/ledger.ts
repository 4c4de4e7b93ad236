// Benchmark: confirmed sales posted per second, through Tierdesk's own code (the partner callback's service:
// lock the sale, record the event and its audit row, post five shares under wallet locks) and, as the floor, the same statements
// written by hand in one transaction on the same pool. At concurrency 1 and 16, on PGlite and on
// PostgreSQL (DATABASE_URL, or a throw-away PostgreSQL 15 started by scripts/pg-throwaway.sh). The admin wallet
// is credited by every sale (a hot row); the same runs without an admin share show what that costs.
// Prints a table and writes tests/bench/results/ledger.json.
//   npm run bench:ledger [-- --quick] [-- --engine pglite|postgres]
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';
import { auditRecorder, PARTNER } from '../../src/server/modules/audit/index';
import { businessDayOf } from '../../src/server/modules/ledger/index';
import { WHOLE_NETWORK } from '../../src/server/modules/network/index';
import { applyProviderEvent } from '../../src/server/modules/sales/index';
import { splitAmount } from '../../src/shared/money';
import { benchArgs } from './command-line';
import { openEngine } from './engines';

const CONCURRENCY = [1, 16];
/** The callback's audit row, as the route writes it (in the event's transaction, before the postings). */
const partnerAudit = auditRecorder(PARTNER, '127.0.0.1', 'provider.event', 'sale');

interface Network {
  admin: string;
  chains: { md: string; d: string; r: string; c: string; path: string }[];
  products: { hot: Product; cool: Product };
}
interface Product {
  id: string;
  amount: number;
  percents: number[];
}

/** A network large enough that only the admin wallet is shared by every sale: 20 MDs, 100 Ds, 500 Rs, 2000 Cs. */
async function seedNetwork(pool: pg.Pool): Promise<Network> {
  const admin = randomUUID();
  const users: unknown[][] = [[admin, 0, 'Administrator', 'bench-admin', `/${admin}/`, null, null, null]];
  const chains: Network['chains'] = [];
  const mds = Array.from({ length: 20 }, () => randomUUID());
  for (const [i, md] of mds.entries())
    users.push([md, 2, `MD ${i}`, `bench-md-${i}`, `/${md}/`, null, null, null]);
  for (let i = 0; i < 100; i++) {
    const md = mds[i % mds.length];
    const d = randomUUID();
    users.push([d, 3, `D ${i}`, `bench-d-${i}`, `/${md}/${d}/`, md, null, null]);
    for (let j = 0; j < 5; j++) {
      const r = randomUUID();
      const rPath = `/${md}/${d}/${r}/`;
      users.push([r, 4, `R ${i}.${j}`, `bench-r-${i}-${j}`, rPath, md, d, null]);
      for (let k = 0; k < 4; k++) {
        const c = randomUUID();
        users.push([c, 1, `C ${i}.${j}.${k}`, `bench-c-${i}-${j}-${k}`, `${rPath}${c}/`, md, d, r]);
        chains.push({ md, d, r, c, path: `${rPath}${c}/` });
      }
    }
  }
  for (let i = 0; i < users.length; i += 500) {
    const batch = users.slice(i, i + 500);
    const values = batch
      .map(
        (_, n) =>
          `($${n * 8 + 1}, $${n * 8 + 2}, $${n * 8 + 3}, $${n * 8 + 4}, 'x', $${n * 8 + 5}, $${n * 8 + 6}, $${n * 8 + 7}, $${n * 8 + 8})`,
      )
      .join(', ');
    await pool.query(
      `insert into users (id, type, name, user_name, password_hash, path, master_distributor_id, distributor_id, retailer_id) values ${values}`,
      batch.flat(),
    );
  }
  await pool.query('insert into wallets (user_id) select id from users on conflict do nothing');
  const provider = (await pool.query(`insert into providers (name) values ('Bench Bank') returning id`))
    .rows[0].id;
  const product = async (name: string, percents: number[]): Promise<Product> => {
    const id = (
      await pool.query(
        `insert into products (provider_id, name, amount_paise, admin_commission, master_distributor_commission,
           distributor_commission, retailer_commission, customer_commission, url, req_type, url_data)
         values ($1, $2, 75050, $3, $4, $5, $6, $7, 'https://bank.example', 'POST', 'PAYUSPRINT-SAVING') returning id`,
        [provider, name, ...percents],
      )
    ).rows[0].id;
    return { id, amount: 75_050, percents };
  };
  return {
    admin,
    chains,
    products: {
      hot: await product('With an admin share', [3333, 1667, 1500, 2500, 1000]),
      cool: await product('Without an admin share', [0, 3000, 2000, 4000, 1000]),
    },
  };
}

interface Pending {
  id: string;
  utm: string;
  merchant: string;
  receivers: { tier: string; userId: string; userType: number; paise: number }[];
}

/** PENDING sales, written directly (this is set-up, not what is measured). */
async function pendingSales(
  pool: pg.Pool,
  net: Network,
  product: Product,
  count: number,
): Promise<Pending[]> {
  const sales: Pending[] = [];
  for (let i = 0; i < count; i++) {
    const chain = net.chains[Math.floor(Math.random() * net.chains.length)];
    const shares = splitAmount(product.amount, product.percents);
    const receivers = [
      { tier: 'ADMIN', userId: net.admin, userType: 0 },
      { tier: 'MASTER_DISTRIBUTOR', userId: chain.md, userType: 2 },
      { tier: 'DISTRIBUTOR', userId: chain.d, userType: 3 },
      { tier: 'RETAILER', userId: chain.r, userType: 4 },
      { tier: 'CUSTOMER', userId: chain.c, userType: 1 },
    ].map((r, n) => ({ ...r, paise: shares[n] }));
    sales.push({
      id: randomUUID(),
      utm: `BENCH${randomBytes(8).toString('hex')}`,
      merchant: 'BENCH',
      receivers,
    });
  }
  for (let i = 0; i < sales.length; i += 200) {
    const batch = sales.slice(i, i + 200);
    const rows = batch.map((s) => {
      const chain = s.receivers;
      return [
        s.id,
        chain[4].userId,
        chain[3].userId,
        product.id,
        net.admin,
        s.utm,
        s.merchant,
        net.chains.find((c) => c.c === chain[4].userId)?.path ?? '/',
        product.amount,
        ...product.percents,
        ...chain.map((r) => r.paise),
        ...chain.map((r) => r.userId),
      ];
    });
    const width = rows[0].length;
    await pool.query(
      `insert into bought_products (id, customer_id, retailer_id, product_id, sold_by, utm_code, merchant_code, path, amount_paise,
         admin_commission, master_distributor_commission, distributor_commission, retailer_commission, customer_commission,
         admin_share, master_distributor_share, distributor_share, retailer_share, customer_share,
         admin_user_id, master_distributor_user_id, distributor_user_id, retailer_user_id, customer_user_id)
       values ${rows.map((_, n) => `(${Array.from({ length: width }, (_, k) => `$${n * width + k + 1}`).join(', ')})`).join(', ')}`,
      rows.flat(),
    );
  }
  return sales;
}

/** The floor: the same statements as the service, in the same order, written by hand on a pooled client. */
async function floorConfirm(pool: pg.Pool, sale: Pending) {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const eventId = randomUUID();
    const [locked] = (
      await client.query('select * from bought_products where utm_code = $1 for update', [sale.utm])
    ).rows;
    await client.query(
      `insert into provider_events (event_id, event, utm_code, bought_product_id, answer)
       values ($1, 'account.opened', $2, $3, $4) on conflict do nothing returning event_id`,
      [eventId, sale.utm, sale.id, JSON.stringify({ eventId, status: 'CONFIRMED' })],
    );
    await client.query(
      `update bought_products set status = 'CONFIRMED', confirmed_at = now() where id = $1`,
      [sale.id],
    );
    // The audit row, before the wallets are locked (as Tierdesk writes it).
    await client.query(
      `insert into audit_log (actor_kind, actor_name, action, entity, entity_id, before, after, ip)
       values ('PARTNER', 'Partner', 'provider.event', 'sale', $1, $2, $3, '127.0.0.1')`,
      [
        sale.id,
        JSON.stringify({ status: 'PENDING', event: null, eventId: null }),
        JSON.stringify({ status: 'CONFIRMED', event: 'account.opened', eventId }),
      ],
    );
    // The sale's day in the charts' counter (sale_days), its networks in key order, before the wallets are locked.
    await client.query(
      `insert into sale_days as t (scope_id, day, product_id, sales, confirmed, failed)
       select s.scope_id, ${businessDayOf('$2::timestamptz')}, $3::uuid, 0, 1, 0 from unnest($1::uuid[]) as s(scope_id)
       order by 1
       on conflict (scope_id, day, product_id) do update set sales = t.sales + excluded.sales,
         confirmed = t.confirmed + excluded.confirmed, failed = t.failed + excluded.failed`,
      [
        [WHOLE_NETWORK, ...String(locked.path).split('/').filter(Boolean).slice(0, -1)],
        locked.created_at,
        locked.product_id,
      ],
    );
    const posting = sale.receivers.filter((r) => r.paise > 0);
    const ids = [...new Set(posting.map((r) => r.userId))].sort();
    const lockedWallets = await client.query(
      'select user_id, clearing_balance_paise, posting_count from wallets where user_id = any($1) order by user_id for update',
      [ids],
    );
    const state = new Map(
      lockedWallets.rows.map((w) => [
        w.user_id,
        { clearing: Number(w.clearing_balance_paise), count: Number(w.posting_count) },
      ]),
    );
    const rows = posting.map((r) => {
      const w = state.get(r.userId)!;
      w.clearing += r.paise;
      w.count += 1;
      return [randomUUID(), r.userId, r.userType, sale.id, r.tier, r.paise, w.clearing, w.count];
    });
    const walletParams = ids.flatMap((id) => [id, state.get(id)!.clearing, state.get(id)!.count]);
    // The ledger's plain statements in its order: the wallets, the postings, then each counter table in key order
    // (the networks' commissions per day and clearing, the dashboard's tiles; the postings' day and month totals and
    // the wallets' day totals, the lists' totals; the retailers' months, the top retailers), each adding the postings
    // just written.
    await client.query(
      `update wallets as w set clearing_balance_paise = v.clearing, posting_count = v.count
       from (values ${ids.map((_, n) => `($${n * 3 + 1}::uuid, $${n * 3 + 2}::bigint, $${n * 3 + 3}::bigint)`).join(', ')}) as v(user_id, clearing, count)
       where w.user_id = v.user_id`,
      walletParams,
    );
    await client.query(
      `insert into postings (id, user_id, user_type, bought_product_id, tier, kind, transaction_type, balance_type, status,
         amount_paise, balance_after_paise, clearing_balance_after_paise, wallet_seq, seal, created_at)
       values ${rows.map((_, n) => `(${[1, 2, 3, 4, 5].map((k) => `$${n * 8 + k}`).join(', ')}, 'COMMISSION', 'CREDIT', 'CLEARING', 'CLEARING', $${n * 8 + 6}, 0, $${n * 8 + 7}, $${n * 8 + 8}, 'floor', now())`).join(', ')}`,
      rows.flat(),
    );
    // The postings just written, as the counters read them (now(): the transaction's time, as the insert wrote).
    const written = [rows.map((row) => row[1]), rows.map((row) => row[2]), rows.map((row) => row[5])];
    const posted = `(select user_id, user_type, 'COMMISSION' as kind, 'CREDIT' as transaction_type, 'CLEARING' as status,
      amount_paise, now() as created_at from unnest($1::uuid[], $2::smallint[], $3::bigint[]) as v(user_id, user_type, amount_paise)) as p`;
    const scopes = `case when u.type in (0, 5) then '{}'::uuid[] else string_to_array(trim(both '/' from u.path), '/')::uuid[] end`;
    const day = businessDayOf('p.created_at');
    await client.query(
      `insert into network_commission_days as d (scope_id, day, amount_paise)
       select s.scope_id, ${day}, sum(p.amount_paise) from ${posted} join users u on u.id = p.user_id
         cross join lateral (select '${WHOLE_NETWORK}'::uuid union all select unnest(${scopes})) as s(scope_id)
       group by 1, 2 order by 1, 2
       on conflict (scope_id, day) do update set amount_paise = d.amount_paise + excluded.amount_paise`,
      written,
    );
    await client.query(
      `insert into network_clearing as c (scope_id, clearing_paise)
       select s.scope_id, sum(p.amount_paise) from ${posted} join users u on u.id = p.user_id
         cross join lateral unnest(${scopes}) as s(scope_id)
       group by 1 order by 1
       on conflict (scope_id) do update set clearing_paise = c.clearing_paise + excluded.clearing_paise`,
      written,
    );
    const totals = (table: string, key: 'day' | 'month', keyed: string) =>
      client.query(
        `insert into ${table} as t (${key}, user_type, kind, transaction_type, status, amount_paise, posting_count)
         select ${keyed}, user_type, kind, transaction_type, status, sum(amount_paise), count(*)
         from ${posted} group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
         on conflict (${key}, user_type, kind, transaction_type, status) do update
           set amount_paise = t.amount_paise + excluded.amount_paise, posting_count = t.posting_count + excluded.posting_count`,
        written,
      );
    await totals('posting_day_totals', 'day', day);
    await totals('posting_month_totals', 'month', `date_trunc('month', ${day})::date`);
    await client.query(
      `insert into wallet_day_totals as t (user_id, day, user_type, kind, transaction_type, status, amount_paise, posting_count)
       select user_id, ${day}, user_type, kind, transaction_type, status, sum(amount_paise), count(*)
       from ${posted} group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
       on conflict (user_id, day, user_type, kind, transaction_type, status) do update
         set amount_paise = t.amount_paise + excluded.amount_paise, posting_count = t.posting_count + excluded.posting_count`,
      written,
    );
    await client.query(
      `insert into retailer_commission_months as t (retailer_id, month, master_distributor_id, distributor_id, amount_paise)
       select p.user_id, date_trunc('month', ${day})::date, u.master_distributor_id, u.distributor_id, sum(p.amount_paise)
       from ${posted} join users u on u.id = p.user_id where p.user_type = 4
       group by 1, 2, 3, 4 order by 1, 2
       on conflict (retailer_id, month) do update set amount_paise = t.amount_paise + excluded.amount_paise`,
      written,
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

/** Runs `work` over every sale with `concurrency` workers; sales per second. */
async function rate(sales: Pending[], concurrency: number, work: (sale: Pending) => Promise<unknown>) {
  const queue = [...sales];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let sale = queue.shift(); sale; sale = queue.shift()) await work(sale);
    }),
  );
  return sales.length / ((performance.now() - started) / 1000);
}

/** A run's label: `c16` (concurrency 16), `c16 without admin share`... */
export type LedgerRun = 'c1' | 'c16' | 'c16 without admin share';

export interface LedgerFigures {
  tierdesk: number;
  floor: number;
  ratio: number;
}

/** Confirmed sales per second through Tierdesk and the floor, for each run asked, measured `repeats` times. */
export async function benchLedgerEngine(
  engine: 'pglite' | 'postgres',
  opts: { sales: number; repeats?: number; only?: LedgerRun[]; log?: (line: string) => void },
) {
  const SALES = opts.sales;
  const log = opts.log ?? console.log;
  const { database, close } = await openEngine(engine, { pgPort: '55470' });
  const ledgerKey = randomBytes(32);
  try {
    const net = await seedNetwork(database.pool);
    const result: Partial<Record<LedgerRun, LedgerFigures[]>> = {};
    const runs = (
      [
        ...CONCURRENCY.map((c): [LedgerRun, Product, number] => [`c${c}` as LedgerRun, net.products.hot, c]),
        ['c16 without admin share', net.products.cool, 16],
      ] as [LedgerRun, Product, number][]
    )
      .filter(([label]) => !opts.only || opts.only.includes(label))
      .flatMap((run) => Array.from({ length: opts.repeats ?? 1 }, () => run));
    for (const [label, product, concurrency] of runs) {
      // Warm both paths, then measure them on fresh sales of the same shape.
      const warm = await pendingSales(database.pool, net, product, 40);
      await rate(warm.slice(0, 20), concurrency, (s) =>
        applyProviderEvent(
          database.db,
          { eventId: randomUUID(), event: 'account.opened', utmCode: s.utm, merchantCode: s.merchant },
          ledgerKey,
          partnerAudit,
        ),
      );
      await rate(warm.slice(20), concurrency, (s) => floorConfirm(database.pool, s));
      // Interleaved in rounds, so table growth and vacuum weigh on both paths alike.
      const forTierdesk = await pendingSales(database.pool, net, product, SALES);
      const forFloor = await pendingSales(database.pool, net, product, SALES);
      const ROUND = 50;
      let tierdeskSeconds = 0;
      let floorSeconds = 0;
      for (let i = 0; i < SALES; i += ROUND) {
        const f = forFloor.slice(i, i + ROUND);
        const t = forTierdesk.slice(i, i + ROUND);
        floorSeconds += f.length / (await rate(f, concurrency, (s) => floorConfirm(database.pool, s)));
        tierdeskSeconds +=
          t.length /
          (await rate(t, concurrency, (s) =>
            applyProviderEvent(
              database.db,
              { eventId: randomUUID(), event: 'account.opened', utmCode: s.utm, merchantCode: s.merchant },
              ledgerKey,
              partnerAudit,
            ),
          ));
      }
      const floor = SALES / floorSeconds;
      const tierdesk = SALES / tierdeskSeconds;
      result[label] = [
        ...(result[label] ?? []),
        {
          tierdesk: Math.round(tierdesk),
          floor: Math.round(floor),
          ratio: Number((tierdesk / floor).toFixed(2)),
        },
      ];
      log(
        `  ${engine.padEnd(8)} ${label.padEnd(26)} Tierdesk ${String(Math.round(tierdesk)).padStart(5)} sales/s   floor ${String(Math.round(floor)).padStart(5)} sales/s   ratio ${(tierdesk / floor).toFixed(2)}`,
      );
    }
    return result;
  } finally {
    await close();
  }
}

async function main() {
  const { quick, only } = benchArgs(
    process.argv.slice(2),
    'npm run bench:ledger [-- --quick] [-- --engine pglite|postgres]',
  );
  const sales = quick ? 300 : 1500;
  console.log(
    `Confirmed sales per second (${sales} sales a run; floor = the same SQL by hand in one transaction):`,
  );
  const engines = (['pglite', 'postgres'] as const).filter((e) => !only || only === e);
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    sales,
  };
  for (const engine of engines) {
    const figures = await benchLedgerEngine(engine, { sales });
    results[engine] = Object.fromEntries(Object.entries(figures).map(([label, [one]]) => [label, one]));
  }
  const out = path.join('tests', 'bench', 'results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'ledger.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`  written to ${path.join(out, 'ledger.json')}`);
}

// Run as `npm run bench:ledger`; run.ts imports benchLedgerEngine for its budget.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href)
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
