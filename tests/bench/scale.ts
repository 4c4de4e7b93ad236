import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { type Config, readConfig } from '../../src/server/config';
import { lockDataDir } from '../../src/server/data-dir-lock';
import { checkDataKey } from '../../src/server/data-key-check';
import { type Database, openDatabase } from '../../src/server/db/open';
import { DEMO_PASSWORD, isEmptyNetwork } from '../../src/server/demo/network';
import { ensureBootstrapAdmin, hashPassword, rebuildCounts } from '../../src/server/modules/account/index';
import {
  chainPosting,
  type LockedWallet,
  loadPostings,
  loadWallets,
  type PostingDraft,
  type PostingRow,
  rebuildNetworkMoney,
  rebuildPostingTotals,
} from '../../src/server/modules/ledger/ledger';
import { rebuildSaleDays } from '../../src/server/modules/sales/index';
import {
  loadServerKeys,
  type PersonalDataCipher,
  type ServerKeys,
} from '../../src/server/security/personal-data';
import type { PostingKind, PostingStatus, TransactionType, WalletBalance } from '../../src/shared/enums';
import { UserType } from '../../src/shared/enums';
import { verhoeffDigit } from '../../src/shared/identity';
import { COMMISSION_TIERS, type CommissionTier, splitAmount } from '../../src/shared/money';
import { URL_DATA_IDENTIFIERS } from '../../src/shared/schemas/catalog';
import { readOptions, refuseCommandLine } from './command-line';

/**
 * `npm run seed:scale -- --users 100000 --postings 1000000`: fills an empty database (DATA_DIR, or DATABASE_URL)
 * with a network of realistic shape and a year of sales, for measuring lists at scale. Every sale follows the
 * ledger's rules: the amount split by largest remainder, each share a sealed posting in its wallet's chain,
 * settlements a day or more later as pairs pointing at their commission, reversals taking shares back. The postings
 * are chained and sealed by the ledger's own chainPosting, wallet by wallet in time order, and the money its
 * networks count is summed by the ledger (rebuildNetworkMoney), so `npm run reconcile` holds afterwards
 * (tests/server/reconcile-cli.test.ts proves it). Those are the ledger's inner functions, not its face: this bulk
 * load is the one place outside the ledger allowed them (tests/server/layering.test.ts). Rows go in as multi-row `unnest` inserts of a few thousand at a
 * time. A bench tool, not part of the server: it lives beside the benches that measure what it seeds.
 */

const DAY = 86_400_000;
const BATCH = 4_000;

export const SCALE_USAGE = 'npm run seed:scale -- [--users N] [--postings N]';

/**
 * The command line of seed:scale: `--users` and `--postings`, whole numbers above zero (100,000 and 1,000,000
 * when left out). Anything else (an unknown option, a missing or bad number, a stray argument) throws, with a
 * message for the operator, before any database is opened.
 */
export function scaleArgs(argv: string[]): { users: number; postings: number } {
  const values = readOptions(argv, { users: { type: 'string' }, postings: { type: 'string' } });
  const count = (name: 'users' | 'postings', fallback: number) => {
    const text = values[name];
    if (text === undefined) return fallback;
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new Error(`--${name} must be a whole number above zero, not '${text}'`);
    return value;
  };
  return { users: count('users', 100_000), postings: count('postings', 1_000_000) };
}

/** A one-line progress bar on stderr. */
function progress(stage: string, total: number) {
  const started = Date.now();
  let last = 0;
  const draw = (done: number) => {
    const width = 30;
    // The postings stage estimates its total; never draw past the end of the bar.
    const filled = Math.min(width, Math.round((done / Math.max(total, 1)) * width));
    const rate = Math.round(done / Math.max((Date.now() - started) / 1000, 0.001));
    process.stderr.write(
      `\r  ${stage.padEnd(22)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(done).padStart(9)}/${total} ${rate}/s `,
    );
  };
  return {
    tick(done: number) {
      if (Date.now() - last > 200 || done === total) {
        last = Date.now();
        draw(done);
      }
    },
    done() {
      draw(total);
      process.stderr.write(`${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      return (Date.now() - started) / 1000;
    },
  };
}

/** Inserts rows as one `insert ... select * from unnest($1::t1[], ...)` per batch. */
async function insertRows(
  pool: pg.Pool,
  table: string,
  columns: [string, string][],
  rows: unknown[][],
  bar?: { tick(done: number): void },
  offset = 0,
) {
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    const arrays = columns.map((_, c) => batch.map((row) => row[c]));
    await pool.query(
      `insert into ${table} (${columns.map(([name]) => name).join(', ')})
       select * from unnest(${columns.map(([, type], n) => `$${n + 1}::${type}[]`).join(', ')})`,
      arrays,
    );
    bar?.tick(offset + i + batch.length);
  }
}

const FIRST = [
  'Aarav',
  'Vivaan',
  'Aditya',
  'Ananya',
  'Diya',
  'Ishaan',
  'Kavya',
  'Rohan',
  'Saanvi',
  'Arjun',
  'Meera',
  'Kabir',
  'Priya',
  'Rahul',
  'Sneha',
  'Vikram',
  'Pooja',
  'Amit',
  'Neha',
  'Suresh',
];
const LAST = [
  'Sharma',
  'Verma',
  'Patel',
  'Singh',
  'Kumar',
  'Gupta',
  'Yadav',
  'Joshi',
  'Reddy',
  'Nair',
  'Iyer',
  'Deshmukh',
  'Kulkarni',
  'Chauhan',
  'Mishra',
  'Agarwal',
  'Pawar',
  'Jadhav',
  'Saini',
  'Bhosale',
];
const SHOPS = [
  'Mobile Store',
  'Kirana',
  'Telecom',
  'Xerox',
  'General Store',
  'Cyber Cafe',
  'Medicals',
  'Digital Seva',
  'Money Point',
  'Pay Hub',
];

/** Fills the open database; the caller opens and closes it (the CLI below, or the list benchmark). */
export async function seedScale(
  database: Database,
  config: Pick<Config, 'adminUsername' | 'adminPassword'>,
  keys: Pick<ServerKeys, 'cipher' | 'ledgerKey'>,
  opts: { users: number; postings: number },
) {
  const { pool, db } = database;
  const timings: Record<string, number> = {};
  await ensureBootstrapAdmin(db, config);
  if (!(await isEmptyNetwork(db)))
    throw new Error(
      'The database already holds a network: seed:scale fills an empty one (a new DATA_DIR or database)',
    );
  const admin = (await pool.query(`select id, path from users where type = 0 order by created_at limit 1`))
    .rows[0];
  const now = Date.now();
  const random = (n: number) => Math.floor(Math.random() * n);

  // Locations: 30 states of 20 districts of 5 tehsils.
  let bar = progress('locations', 3_000);
  const places: { districtId: string; tehsilId: string }[] = [];
  const stateRows: unknown[][] = [];
  const districtRows: unknown[][] = [];
  const tehsilRows: unknown[][] = [];
  for (let s = 0; s < 30; s++) {
    const stateId = randomUUID();
    stateRows.push([stateId, `State ${s + 1}`, new Date(now - 800 * DAY)]);
    for (let d = 0; d < 20; d++) {
      const districtId = randomUUID();
      districtRows.push([districtId, `District ${s + 1}-${d + 1}`, stateId, new Date(now - 800 * DAY)]);
      for (let t = 0; t < 5; t++) {
        const tehsilId = randomUUID();
        tehsilRows.push([
          tehsilId,
          `Tehsil ${s + 1}-${d + 1}-${t + 1}`,
          districtId,
          stateId,
          new Date(now - 800 * DAY),
        ]);
        places.push({ districtId, tehsilId });
      }
    }
  }
  await insertRows(
    pool,
    'states',
    [
      ['id', 'uuid'],
      ['name', 'text'],
      ['created_at', 'timestamptz'],
    ],
    stateRows,
  );
  await insertRows(
    pool,
    'districts',
    [
      ['id', 'uuid'],
      ['name', 'text'],
      ['state_id', 'uuid'],
      ['created_at', 'timestamptz'],
    ],
    districtRows,
  );
  await insertRows(
    pool,
    'tehsils',
    [
      ['id', 'uuid'],
      ['name', 'text'],
      ['district_id', 'uuid'],
      ['state_id', 'uuid'],
      ['created_at', 'timestamptz'],
    ],
    tehsilRows,
    bar,
  );
  timings.locations = bar.done();

  // Catalogue: 5 providers with 3 products each, one per account type.
  const products: { id: string; amount: number; percents: number[]; urlData: string }[] = [];
  for (let p = 0; p < 5; p++) {
    const providerId = (
      await pool.query(`insert into providers (name) values ($1) returning id`, [`Partner Bank ${p + 1}`])
    ).rows[0].id;
    for (const [k, urlData] of URL_DATA_IDENTIFIERS.entries()) {
      const percents = [
        [4000, 1500, 1500, 2000, 1000],
        [3333, 1667, 1500, 2500, 1000],
        [3000, 2000, 2000, 2500, 500],
      ][k];
      const amount = [50_000, 75_050, 100_000][k] + p * 2_500;
      const id = (
        await pool.query(
          `insert into products (provider_id, name, amount_paise, admin_commission, master_distributor_commission,
             distributor_commission, retailer_commission, customer_commission, url, req_type, url_data)
           values ($1, $2, $3, $4, $5, $6, $7, $8, 'https://partner.example/open', 'POST', $9) returning id`,
          [
            providerId,
            `${['Saving', 'Current', 'Sole Proprietor'][k]} Account ${p + 1}`,
            amount,
            ...percents,
            urlData,
          ],
        )
      ).rows[0].id;
      products.push({ id, amount, percents, urlData });
    }
  }

  // People: 0.05% master distributors, 1% distributors, 20% retailers, 0.05% employees, the rest customers.
  const total = opts.users - 1;
  const counts = {
    md: Math.max(2, Math.round(total * 0.0005)),
    d: Math.max(4, Math.round(total * 0.01)),
    r: Math.max(8, Math.round(total * 0.2)),
    e: Math.max(2, Math.round(total * 0.0005)),
  };
  const customers = Math.max(1, total - counts.md - counts.d - counts.r - counts.e);
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const userRows: unknown[][] = [];
  const types = new Map<string, number>([[admin.id, UserType.ADMIN]]);
  let serial = 0;
  const span = 700 * DAY;
  const person = (
    type: number,
    name: string,
    parent: { id: string; path: string } | null,
    ids: { md?: string; d?: string; r?: string },
    extra: { aadhar?: ReturnType<typeof aadharOf>; pan?: string } = {},
  ) => {
    const id = randomUUID();
    serial++;
    const mobile = String(6_000_000_000 + serial);
    const place = places[random(places.length)];
    const path = `${parent?.path ?? '/'}${id}/`;
    const createdAt = new Date(now - span + Math.floor((serial / opts.users) * (span - DAY)));
    userRows.push([
      id,
      type,
      name,
      `${mobile}@scale.tierdesk.in`,
      mobile,
      mobile,
      passwordHash,
      createdAt,
      'ACTIVE',
      place.districtId,
      place.tehsilId,
      path,
      ids.md ?? null,
      ids.d ?? null,
      ids.r ?? null,
      type === UserType.MASTER_DISTRIBUTOR ? true : type === UserType.DISTRIBUTOR ? false : null,
      type === UserType.MASTER_DISTRIBUTOR ? 'abcA12' : null,
      type === UserType.MASTER_DISTRIBUTOR ? '10.5' : null,
      extra.aadhar?.cipher ?? null,
      extra.aadhar?.hash ?? null,
      extra.aadhar?.last4 ?? null,
      extra.pan ?? null,
      createdAt,
    ]);
    types.set(id, type);
    return { id, path };
  };
  const aadharOf = (cipher: PersonalDataCipher, n: number) => {
    const base = `3${String(n).padStart(10, '0')}`;
    const aadhar = `${base}${verhoeffDigit(base)}`;
    return { cipher: cipher.encrypt(aadhar), hash: cipher.searchHash(aadhar), last4: aadhar.slice(-4) };
  };
  const name = () => `${FIRST[random(FIRST.length)]} ${LAST[random(LAST.length)]}`;
  bar = progress('people (prepare)', opts.users);
  for (let i = 0; i < counts.e; i++) person(UserType.EMPLOYEE, name(), null, {});
  const mds = Array.from({ length: counts.md }, () =>
    person(UserType.MASTER_DISTRIBUTOR, `${LAST[random(LAST.length)]} Enterprises`, null, {}),
  );
  const ds = Array.from({ length: counts.d }, (_, i) => {
    const md = mds[i % mds.length];
    return {
      ...person(UserType.DISTRIBUTOR, `${LAST[random(LAST.length)]} Distributors`, md, { md: md.id }),
      md: md.id,
    };
  });
  const rs = Array.from({ length: counts.r }, (_, i) => {
    const d = ds[i % ds.length];
    return {
      ...person(UserType.RETAILER, `${FIRST[random(FIRST.length)]} ${SHOPS[random(SHOPS.length)]}`, d, {
        md: d.md,
        d: d.id,
      }),
      md: d.md,
      d: d.id,
    };
  });
  const chains: { c: string; r: string | null; d: string | null; md: string | null; path: string }[] = [];
  for (let i = 0; i < customers; i++) {
    // One customer in fifty has no retailer (signed up by staff).
    const r = i % 50 === 49 ? null : rs[random(rs.length)];
    const c = person(UserType.CUSTOMER, name(), r, r ? { md: r.md, d: r.d, r: r.id } : {}, {
      aadhar: aadharOf(keys.cipher, i + 1),
      pan: `ABCDE${String(1000 + (i % 9000)).padStart(4, '0')}F`,
    });
    chains.push({ c: c.id, r: r?.id ?? null, d: r?.d ?? null, md: r?.md ?? null, path: c.path });
    if (i % 5000 === 0) bar.tick(serial);
  }
  bar.done();
  bar = progress('people', userRows.length);
  await insertRows(
    pool,
    'users',
    [
      ['id', 'uuid'],
      ['type', 'smallint'],
      ['name', 'text'],
      ['email', 'text'],
      ['mobile', 'text'],
      ['user_name', 'text'],
      ['password_hash', 'text'],
      ['password_updated_at', 'timestamptz'],
      ['status', 'text'],
      ['district_id', 'uuid'],
      ['tehsil_id', 'uuid'],
      ['path', 'text'],
      ['master_distributor_id', 'uuid'],
      ['distributor_id', 'uuid'],
      ['retailer_id', 'uuid'],
      ['is_master', 'boolean'],
      ['distributor_code', 'text'],
      ['master_distributor_commission', 'text'],
      ['aadhar_cipher', 'text'],
      ['aadhar_hash', 'text'],
      ['aadhar_last4', 'text'],
      ['pan_id', 'text'],
      ['created_at', 'timestamptz'],
    ],
    userRows,
    bar,
  );
  await rebuildCounts(db);
  timings.people = bar.done();

  // A year of sales, as a timeline of ledger events; the postings are then written wallet chain by wallet chain.
  type Event = {
    at: number;
    userId: string;
    draft: PostingDraft & { id: string };
    kind: string;
    amount: number;
  };
  const events: Event[] = [];
  const sales: unknown[][] = [];
  const openings: unknown[][] = [];
  const providerEvents: unknown[][] = [];
  const year = 365 * DAY;
  const statusCounts = { CONFIRMED: 0, PENDING: 0, FAILED: 0, REVERSED: 0 };
  bar = progress('sales (prepare)', opts.postings);
  let n = 0;
  for (; events.length < opts.postings; n++) {
    const chain = chains[random(chains.length)];
    const product = products[random(products.length)];
    // Spread over the year by how many of the postings are written so far.
    const at = Math.min(
      now - 60_000,
      now - year + Math.floor((events.length / opts.postings) * year) + random(60_000),
    );
    const roll = random(100);
    const status = roll < 85 ? 'CONFIRMED' : roll < 90 ? 'PENDING' : roll < 95 ? 'FAILED' : 'REVERSED';
    statusCounts[status]++;
    const shares = splitAmount(product.amount, product.percents);
    const receivers = [admin.id, chain.md ?? admin.id, chain.d ?? admin.id, chain.r ?? admin.id, chain.c];
    const id = randomUUID();
    const utm = `SCALE${randomBytes(8).toString('hex').toUpperCase()}`;
    const soldBy = chain.r ?? admin.id;
    openings.push([
      utm,
      'SCALE-MERCHANT',
      product.urlData,
      product.id,
      product.amount,
      ...product.percents,
      chain.c,
      soldBy,
      new Date(at),
    ]);
    // Nothing is confirmed or reversed later than now: a posting of tomorrow would count in no tile of today.
    const confirmedAt =
      status === 'CONFIRMED' || status === 'REVERSED'
        ? Math.min(now - 30_000, at + 60_000 + random(3_600_000))
        : null;
    const reversedAt = status === 'REVERSED' ? Math.min(now - 1_000, confirmedAt! + random(2 * DAY)) : null;
    const failedAt = status === 'FAILED' ? Math.min(now - 1_000, at + random(DAY)) : null;
    sales.push([
      id,
      chain.c,
      chain.r,
      product.id,
      soldBy,
      utm,
      'SCALE-MERCHANT',
      product.urlData,
      status,
      chain.path,
      product.amount,
      ...product.percents,
      ...shares,
      ...receivers,
      new Date(at),
      confirmedAt ? new Date(confirmedAt) : null,
      failedAt ? new Date(failedAt) : null,
      reversedAt ? new Date(reversedAt) : null,
    ]);
    if (status !== 'PENDING') {
      const eventAt = confirmedAt ?? failedAt!;
      providerEvents.push([
        randomUUID(),
        status === 'FAILED' ? 'account.failed' : 'account.opened',
        utm,
        id,
        JSON.stringify({ status }),
        new Date(eventAt),
      ]);
      if (reversedAt)
        providerEvents.push([
          randomUUID(),
          'account.reversed',
          utm,
          id,
          JSON.stringify({ status }),
          new Date(reversedAt),
        ]);
    }
    if (!confirmedAt) continue;
    COMMISSION_TIERS.forEach((tier, k) => {
      if (shares[k] === 0) return;
      const commissionId = randomUUID();
      const base = {
        userId: receivers[k],
        boughtProductId: id,
        tier: tier as CommissionTier,
        amountPaise: shares[k],
      };
      events.push({
        at: confirmedAt,
        userId: receivers[k],
        amount: shares[k],
        kind: 'COMMISSION',
        draft: {
          ...base,
          id: commissionId,
          kind: 'COMMISSION' as PostingKind,
          transactionType: 'CREDIT' as TransactionType,
          balanceType: 'CLEARING' as WalletBalance,
          status: 'CLEARING' as PostingStatus,
          refPostingId: null,
        },
      });
      // The job settles a day after confirmation; a reversal may come first.
      const settleAt = confirmedAt + DAY + random(DAY);
      const settled = settleAt < now && (!reversedAt || reversedAt > settleAt);
      if (settled) {
        const pair = {
          ...base,
          kind: 'SETTLEMENT' as PostingKind,
          status: 'SETTLED' as PostingStatus,
          refPostingId: commissionId,
        };
        events.push({
          at: settleAt,
          userId: receivers[k],
          amount: shares[k],
          kind: 'SETTLE-D',
          draft: {
            ...pair,
            id: randomUUID(),
            transactionType: 'DEBIT' as TransactionType,
            balanceType: 'CLEARING' as WalletBalance,
          },
        });
        events.push({
          at: settleAt + 1,
          userId: receivers[k],
          amount: shares[k],
          kind: 'SETTLE-C',
          draft: {
            ...pair,
            id: randomUUID(),
            transactionType: 'CREDIT' as TransactionType,
            balanceType: 'AVAILABLE' as WalletBalance,
          },
        });
      }
      if (reversedAt)
        events.push({
          at: reversedAt,
          userId: receivers[k],
          amount: shares[k],
          kind: 'REVERSAL',
          draft: {
            ...base,
            id: randomUUID(),
            kind: 'REVERSAL' as PostingKind,
            transactionType: 'DEBIT' as TransactionType,
            balanceType: (settled && settleAt < reversedAt ? 'AVAILABLE' : 'CLEARING') as WalletBalance,
            status: 'REVERSED' as PostingStatus,
            refPostingId: commissionId,
          },
        });
    });
    if (n % 2000 === 0) bar.tick(Math.min(events.length, opts.postings));
  }
  bar.done();

  bar = progress('sales', sales.length);
  await insertRows(
    pool,
    'account_openings',
    [
      ['utm_code', 'text'],
      ['merchant_code', 'text'],
      ['account_type', 'text'],
      ['product_id', 'uuid'],
      ['amount_paise', 'bigint'],
      ['admin_commission', 'integer'],
      ['master_distributor_commission', 'integer'],
      ['distributor_commission', 'integer'],
      ['retailer_commission', 'integer'],
      ['customer_commission', 'integer'],
      ['customer_id', 'uuid'],
      ['requested_by', 'uuid'],
      ['created_at', 'timestamptz'],
    ],
    openings,
  );
  await insertRows(
    pool,
    'bought_products',
    [
      ['id', 'uuid'],
      ['customer_id', 'uuid'],
      ['retailer_id', 'uuid'],
      ['product_id', 'uuid'],
      ['sold_by', 'uuid'],
      ['utm_code', 'text'],
      ['merchant_code', 'text'],
      ['account_type', 'text'],
      ['status', 'text'],
      ['path', 'text'],
      ['amount_paise', 'bigint'],
      ['admin_commission', 'integer'],
      ['master_distributor_commission', 'integer'],
      ['distributor_commission', 'integer'],
      ['retailer_commission', 'integer'],
      ['customer_commission', 'integer'],
      ['admin_share', 'bigint'],
      ['master_distributor_share', 'bigint'],
      ['distributor_share', 'bigint'],
      ['retailer_share', 'bigint'],
      ['customer_share', 'bigint'],
      ['admin_user_id', 'uuid'],
      ['master_distributor_user_id', 'uuid'],
      ['distributor_user_id', 'uuid'],
      ['retailer_user_id', 'uuid'],
      ['customer_user_id', 'uuid'],
      ['created_at', 'timestamptz'],
      ['confirmed_at', 'timestamptz'],
      ['failed_at', 'timestamptz'],
      ['reversed_at', 'timestamptz'],
    ],
    sales,
    bar,
  );
  await insertRows(
    pool,
    'provider_events',
    [
      ['event_id', 'text'],
      ['event', 'text'],
      ['utm_code', 'text'],
      ['bought_product_id', 'uuid'],
      ['answer', 'jsonb'],
      ['received_at', 'timestamptz'],
    ],
    providerEvents,
  );
  timings.sales = bar.done();

  // Postings in time order, each chained and sealed into its wallet's chain by the ledger (chainPosting).
  events.sort((a, b) => a.at - b.at);
  const wallets = new Map<string, LockedWallet>(
    [...types].map(([userId, userType]) => [
      userId,
      { userId, userType, balance: 0n, clearing: 0n, count: 0, head: null },
    ]),
  );
  bar = progress('postings', events.length);
  let postingRows: PostingRow[] = [];
  let written = 0;
  for (const e of events) {
    const wallet = wallets.get(e.userId);
    if (!wallet) throw new Error(`no user ${e.userId}`);
    postingRows.push(chainPosting(wallet, e.draft, { ledgerKey: keys.ledgerKey, now: new Date(e.at) }));
    if (postingRows.length === BATCH * 5) {
      await loadPostings(db, postingRows);
      written += postingRows.length;
      bar.tick(written);
      postingRows = [];
    }
  }
  await loadPostings(db, postingRows);
  bar.tick(written + postingRows.length);
  timings.postings = bar.done();

  bar = progress('wallets', wallets.size);
  const walletRows = [...wallets.values()];
  for (let i = 0; i < walletRows.length; i += BATCH) {
    await loadWallets(db, walletRows.slice(i, i + BATCH));
    bar.tick(Math.min(i + BATCH, walletRows.length));
  }
  timings.wallets = bar.done();
  // The postings were loaded, not written by writePostings: the money its networks keep is summed once here.
  bar = progress('network money', 1);
  await rebuildNetworkMoney(db);
  timings.networkMoney = bar.done();
  // Likewise the postings' day totals (the lists' money in and out).
  bar = progress('posting totals', 1);
  await rebuildPostingTotals(db);
  timings.postingTotals = bar.done();
  // And the sales each network counts per day and product (the dashboard's charts; the retailers' months for its
  // top retailers came with the network money above).
  bar = progress('sale days', 1);
  await rebuildSaleDays(db);
  timings.saleDays = bar.done();
  // VACUUM as well as ANALYZE: it marks the freshly written pages all-visible, so deep pages are read from the
  // index alone (the embedded database has no autovacuum to do it later).
  bar = progress('vacuum analyze', 1);
  await pool.query('vacuum analyze');
  timings.vacuumAnalyze = bar.done();

  return {
    users: {
      admin: 1,
      employees: counts.e,
      masterDistributors: counts.md,
      distributors: counts.d,
      retailers: counts.r,
      customers,
    },
    sales: { total: n, ...statusCounts },
    postings: events.length,
    seconds: timings,
  };
}

if (process.argv[1]?.endsWith('scale.ts')) {
  const { users, postings } = (() => {
    try {
      return scaleArgs(process.argv.slice(2));
    } catch (error) {
      return refuseCommandLine(error, SCALE_USAGE);
    }
  })();
  console.log(`Seeding ${users} users and about ${postings} postings...`);
  const started = Date.now();
  const config = readConfig();
  if (!config.databaseUrl) {
    const lock = lockDataDir(config.dataDir);
    process.once('exit', () => lock.release());
  }
  const keys = loadServerKeys(config);
  openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
    .then((database) =>
      // It seals postings as a server does: refused, like a server, with another key than the database's.
      checkDataKey(database.db, keys)
        .then(() => seedScale(database, config, keys, { users, postings }))
        .finally(() => database.close()),
    )
    .then((summary) => {
      console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s:`);
      console.log(JSON.stringify(summary, null, 2));
      console.log('Check it with `npm run reconcile`; sign in as any user with password', DEMO_PASSWORD);
    })
    .catch((error) => {
      console.error(`\n${error instanceof Error ? error.message : error}`);
      process.exit(1);
    });
}
