import { and, asc, eq, gt, or, sql } from 'drizzle-orm';
import { paiseToRupees } from '../../../shared/money';
import type { ReconcileReport } from '../../../shared/wire';
import type { Db, Queryable } from '../../db/open';
import {
  accountOpenings,
  boughtProducts,
  ledgerAccounts,
  networkClearing,
  networkCommissionDays,
  postings,
  tdsEntries,
  wallets,
} from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { TDS_PAYABLE } from '../tds/index';
import {
  EXACT_POSTING,
  NETWORK_CLEARING,
  NETWORK_COMMISSION_DAYS,
  POSTING_DAY_TOTALS,
  POSTING_MONTH_TOTALS,
  type PostingRow,
  RETAILER_COMMISSION_MONTHS,
} from './ledger';
import { sealPosting } from './seal';

type Break = ReconcileReport['breaks'][number];

/** Rows of a raw query as plain objects. */
async function rows<T>(db: Queryable, query: ReturnType<typeof sql>): Promise<T[]> {
  return (await db.execute(query)).rows as T[];
}

/** Sale-level checks: every confirmed or reversed sale posted its frozen split exactly; nothing else posted. */
async function saleBreaks(db: Queryable): Promise<Break[]> {
  const breaks: Break[] = [];
  const unbalanced = await rows<{ id: string; amount: string; posted: string }>(
    db,
    sql`select s.id, s.amount_paise as amount, coalesce(sum(p.amount_paise), 0) as posted
        from ${boughtProducts} s
        left join ${postings} p on p.bought_product_id = s.id and p.kind = 'COMMISSION'
        where s.status in ('CONFIRMED', 'REVERSED')
        group by s.id
        having coalesce(sum(p.amount_paise), 0) <> s.amount_paise`,
  );
  for (const r of unbalanced)
    breaks.push({
      check: 'sale-sum',
      detail: `sale ${r.id}: commissions ${r.posted} paise, amount ${r.amount}`,
    });

  const misdirected = await rows<{ id: string; sale: string }>(
    db,
    sql`select p.id, s.id as sale from ${postings} p join ${boughtProducts} s on s.id = p.bought_product_id
        where p.kind = 'COMMISSION' and (
          p.user_id <> case p.tier when 'ADMIN' then s.admin_user_id
            when 'MASTER_DISTRIBUTOR' then s.master_distributor_user_id when 'DISTRIBUTOR' then s.distributor_user_id
            when 'RETAILER' then s.retailer_user_id else s.customer_user_id end
          or p.amount_paise <> case p.tier when 'ADMIN' then s.admin_share
            when 'MASTER_DISTRIBUTOR' then s.master_distributor_share when 'DISTRIBUTOR' then s.distributor_share
            when 'RETAILER' then s.retailer_share else s.customer_share end)`,
  );
  for (const r of misdirected)
    breaks.push({
      check: 'sale-share',
      detail: `posting ${r.id} does not match the frozen split of sale ${r.sale}`,
    });

  const unexpected = await rows<{ id: string; status: string }>(
    db,
    sql`select distinct s.id, s.status from ${boughtProducts} s join ${postings} p on p.bought_product_id = s.id
        where s.status in ('PENDING', 'FAILED') or (s.status = 'CONFIRMED' and p.kind = 'REVERSAL')`,
  );
  for (const r of unexpected)
    breaks.push({
      check: 'sale-status',
      detail: `sale ${r.id} is ${r.status} but has postings that say otherwise`,
    });

  const unreversed = await rows<{ id: string }>(
    db,
    sql`select s.id from ${boughtProducts} s
        left join ${postings} p on p.bought_product_id = s.id and p.kind = 'REVERSAL'
        where s.status = 'REVERSED' group by s.id, s.amount_paise
        having coalesce(sum(p.amount_paise), 0) <> s.amount_paise`,
  );
  for (const r of unreversed)
    breaks.push({ check: 'sale-reversal', detail: `reversed sale ${r.id} was not taken back in full` });
  return breaks;
}

const TIERS = ['admin', 'master_distributor', 'distributor', 'retailer', 'customer'];

/**
 * Every confirmed or reversed sale is split as its account opening recorded (openings are bound to one product):
 * the same product, amount and five percentages, and each share is its percentage of the amount, rounded down or
 * up by at most one paisa (largest remainder). With saleBreaks' check of each posting against the sale's shares,
 * every sale's postings follow the split recorded at opening. Exact: numeric arithmetic in the database.
 */
async function openingBreaks(db: Queryable): Promise<Break[]> {
  const differs = sql.raw(
    [
      'o.utm_code is null',
      'o.product_id is distinct from s.product_id',
      'o.amount_paise is distinct from s.amount_paise',
      ...TIERS.map((t) => `o.${t}_commission is distinct from s.${t}_commission`),
    ].join(' or '),
  );
  const offShare = sql.raw(
    TIERS.map(
      (t) => `s.${t}_share - floor(s.amount_paise::numeric * s.${t}_commission / 10000) not in (0, 1)`,
    ).join(' or '),
  );
  const unbound = await rows<{ id: string }>(
    db,
    sql`select s.id from ${boughtProducts} s left join ${accountOpenings} o on o.utm_code = s.utm_code
        where s.status in ('CONFIRMED', 'REVERSED') and (${differs}) order by s.id`,
  );
  const unsplit = await rows<{ id: string }>(
    db,
    sql`select s.id from ${boughtProducts} s where s.status in ('CONFIRMED', 'REVERSED') and (${offShare})
        order by s.id`,
  );
  return [
    ...unbound.map((r) => ({
      check: 'sale-opening',
      detail: `sale ${r.id} is not the product, amount and split its account opening recorded`,
    })),
    ...unsplit.map((r) => ({
      check: 'sale-split',
      detail: `sale ${r.id}: a share is not its percentage of the amount`,
    })),
  ];
}

/** Settlements and reversals point at a commission of the same user and amount, and pair up correctly. */
async function correctionBreaks(db: Queryable): Promise<Break[]> {
  const bad = await rows<{ id: string; kind: string }>(
    db,
    sql`select p.id, p.kind from ${postings} p left join ${postings} c on c.id = p.ref_posting_id
        where p.kind in ('SETTLEMENT', 'REVERSAL') and (c.id is null or c.kind <> 'COMMISSION'
          or c.user_id <> p.user_id or c.amount_paise <> p.amount_paise)`,
  );
  const unpaired = await rows<{ ref: string }>(
    db,
    sql`select ref_posting_id as ref from ${postings} where kind = 'SETTLEMENT' group by ref_posting_id
        having count(*) <> 2 or count(*) filter (where transaction_type = 'DEBIT' and balance_type = 'CLEARING') <> 1`,
  );
  const misordered = await rows<{ id: string }>(
    db,
    sql`select r.id from ${postings} r
        left join ${postings} s on s.ref_posting_id = r.ref_posting_id and s.kind = 'SETTLEMENT' and s.balance_type = 'AVAILABLE'
        where r.kind = 'REVERSAL' and ((r.balance_type = 'AVAILABLE') <> (s.id is not null and s.wallet_seq < r.wallet_seq)
          or (s.id is not null and s.wallet_seq > r.wallet_seq))`,
  );
  return [
    ...bad.map((r) => ({
      check: 'correction-target',
      detail: `${r.kind.toLowerCase()} ${r.id} does not match its commission`,
    })),
    ...unpaired.map((r) => ({
      check: 'settlement-pair',
      detail: `commission ${r.ref} is not settled as one debit and one credit`,
    })),
    ...misordered.map((r) => ({
      check: 'reversal-balance',
      detail: `reversal ${r.id} debited the wrong balance`,
    })),
  ];
}

/**
 * TDS (section 194H, modules/tds/tds.ts): every TDS posting has its entry in TDS payable (the same amount, user
 * and commission, WITHHELD for a debit, RETURNED for a credit), taxes a commission of its own user settled before
 * it, and a return gives back exactly what was withheld; TDS payable equals the sum of its entries.
 */
async function tdsBreaks(db: Queryable): Promise<Break[]> {
  const unmatched = await rows<{ id: string }>(
    db,
    sql`select p.id from ${postings} p left join ${tdsEntries} e on e.posting_id = p.id
        where p.kind = 'TDS' and (e.id is null or e.amount_paise <> p.amount_paise or e.user_id <> p.user_id
          or e.kind <> case p.transaction_type when 'DEBIT' then 'WITHHELD' else 'RETURNED' end
          or e.commission_id is distinct from p.ref_posting_id)
        order by p.id`,
  );
  const misplaced = await rows<{ id: string }>(
    db,
    sql`select p.id from ${postings} p left join ${postings} c on c.id = p.ref_posting_id
        where p.kind = 'TDS' and (c.id is null or c.kind <> 'COMMISSION' or c.user_id <> p.user_id
          or not exists (select 1 from ${postings} s where s.ref_posting_id = c.id and s.kind = 'SETTLEMENT'
            and s.balance_type = 'AVAILABLE' and s.wallet_seq < p.wallet_seq)
          or (p.transaction_type = 'CREDIT' and not exists (select 1 from ${postings} d where d.ref_posting_id = c.id
            and d.kind = 'TDS' and d.transaction_type = 'DEBIT' and d.amount_paise = p.amount_paise
            and d.wallet_seq < p.wallet_seq)))
        order by p.id`,
  );
  const [account] = await rows<{ kept: string | null; count: string | null; summed: string; n: string }>(
    db,
    sql`select (select balance_paise::text from ${ledgerAccounts} where name = ${TDS_PAYABLE}) as kept,
          (select entry_count::text from ${ledgerAccounts} where name = ${TDS_PAYABLE}) as count,
          (select coalesce(sum(case kind when 'WITHHELD' then amount_paise else -amount_paise end), 0)::text
            from ${tdsEntries}) as summed,
          (select count(*)::text from ${tdsEntries}) as n`,
  );
  const accountBroken =
    BigInt(account.kept ?? '0') !== BigInt(account.summed) ||
    BigInt(account.count ?? '0') !== BigInt(account.n);
  return [
    ...unmatched.map((r) => ({
      check: 'tds-entry',
      detail: `TDS posting ${r.id} has no matching entry in TDS payable`,
    })),
    ...misplaced.map((r) => ({
      check: 'tds-commission',
      detail: `TDS posting ${r.id} does not tax a settled commission of its user`,
    })),
    ...(accountBroken
      ? [
          {
            check: 'tds-payable',
            detail: `TDS payable: ${account.kept ?? 0}/${account.summed}, entries ${account.count ?? 0}/${account.n} (kept/summed, paise)`,
          },
        ]
      : []),
  ];
}

/**
 * Each wallet equals the sum of its postings, clearing and available separately; clearing is never negative (the
 * available balance may be: a wallet that owes, which chainBreaks proves only a reversal did).
 */
async function walletBreaks(db: Queryable): Promise<Break[]> {
  const mismatched = await rows<{
    user_id: string;
    balance: string;
    clearing: string;
    available_sum: string;
    clearing_sum: string;
    n: string;
    count: string;
  }>(
    db,
    sql`select w.user_id, w.balance_paise as balance, w.clearing_balance_paise as clearing, w.posting_count as count,
          coalesce(sum(case when p.transaction_type = 'CREDIT' then p.amount_paise else -p.amount_paise end)
            filter (where p.balance_type = 'AVAILABLE'), 0) as available_sum,
          coalesce(sum(case when p.transaction_type = 'CREDIT' then p.amount_paise else -p.amount_paise end)
            filter (where p.balance_type = 'CLEARING'), 0) as clearing_sum,
          count(p.id) as n
        from ${wallets} w left join ${postings} p on p.user_id = w.user_id
        group by w.user_id
        having w.balance_paise <> coalesce(sum(case when p.transaction_type = 'CREDIT' then p.amount_paise else -p.amount_paise end)
                 filter (where p.balance_type = 'AVAILABLE'), 0)
          or w.clearing_balance_paise <> coalesce(sum(case when p.transaction_type = 'CREDIT' then p.amount_paise else -p.amount_paise end)
                 filter (where p.balance_type = 'CLEARING'), 0)
          or w.posting_count <> count(p.id)
          or w.clearing_balance_paise < 0`,
  );
  const orphans = await rows<{ user_id: string }>(
    db,
    sql`select distinct p.user_id from ${postings} p left join ${wallets} w on w.user_id = p.user_id where w.user_id is null`,
  );
  return [
    ...mismatched.map((r) => ({
      check: 'wallet-sum',
      detail: `wallet ${r.user_id}: balance ${r.balance}/${r.available_sum}, clearing ${r.clearing}/${r.clearing_sum}, postings ${r.count}/${r.n} (stored/summed, paise)`,
    })),
    ...orphans.map((r) => ({ check: 'wallet-missing', detail: `postings of ${r.user_id} have no wallet` })),
  ];
}

/**
 * The money the ledger keeps per network (the dashboard's tiles) equals a recount: each network's commissions per
 * day from the postings, its clearing from the wallets, with the users' paths as they are now. A row at zero
 * and no row are the same.
 */
async function networkMoneyBreaks(db: Queryable): Promise<Break[]> {
  const days = await rows<{ scope_id: string; day: string; kept: string | null; summed: string | null }>(
    db,
    sql`select coalesce(k.scope_id, s.scope_id) as scope_id, to_char(coalesce(k.day, s.day), 'YYYY-MM-DD') as day,
          k.amount_paise as kept, s.amount_paise as summed
        from ${networkCommissionDays} k
        full join (${sql.raw(NETWORK_COMMISSION_DAYS)}) s on s.scope_id = k.scope_id and s.day = k.day
        where coalesce(k.amount_paise, 0) <> coalesce(s.amount_paise, 0)
        order by 1, 2`,
  );
  const clearing = await rows<{ scope_id: string; kept: string | null; summed: string | null }>(
    db,
    sql`select coalesce(k.scope_id, s.scope_id) as scope_id, k.clearing_paise as kept, s.clearing_paise as summed
        from ${networkClearing} k full join (${sql.raw(NETWORK_CLEARING)}) s on s.scope_id = k.scope_id
        where coalesce(k.clearing_paise, 0) <> coalesce(s.clearing_paise, 0)
        order by 1`,
  );
  // Each retailer's month (the dashboard's top retailers), its amount and the chain it is counted under.
  const months = await rows<{
    retailer_id: string;
    month: string;
    kept: string | null;
    summed: string | null;
  }>(
    db,
    sql`select coalesce(k.retailer_id, s.retailer_id) as retailer_id,
          to_char(coalesce(k.month, s.month), 'YYYY-MM') as month, k.amount_paise as kept, s.amount_paise as summed
        from retailer_commission_months k
        full join (${sql.raw(RETAILER_COMMISSION_MONTHS)}) s on s.retailer_id = k.retailer_id and s.month = k.month
        where coalesce(k.amount_paise, 0) <> coalesce(s.amount_paise, 0)
          or k.master_distributor_id is distinct from s.master_distributor_id
          or k.distributor_id is distinct from s.distributor_id
        order by 1, 2`,
  );
  return [
    ...months.map((r) => ({
      check: 'retailer-commissions',
      detail: `commissions of retailer ${r.retailer_id} in ${r.month}: ${r.kept ?? 0}/${r.summed ?? 0} (kept/summed, paise), or its chain`,
    })),
    ...days.map((r) => ({
      check: 'network-commissions',
      detail: `commissions of network ${r.scope_id} on ${r.day}: ${r.kept ?? 0}/${r.summed ?? 0} (kept/summed, paise)`,
    })),
    ...clearing.map((r) => ({
      check: 'network-clearing',
      detail: `clearing of network ${r.scope_id}: ${r.kept ?? 0}/${r.summed ?? 0} (kept/summed, paise)`,
    })),
  ];
}

/**
 * The postings' totals (the lists' money in and out: posting_day_totals, posting_month_totals, and per user
 * wallet_day_totals) equal a recount from the postings, amount and count. A row at zero and no row are the same.
 */
async function postingTotalsBreaks(db: Queryable): Promise<Break[]> {
  const key = ['day', 'user_type', 'kind', 'transaction_type', 'status'];
  const recount = async (table: string, by: '' | 'user_id, ' | 'month') => {
    const columns = by === 'month' ? ['month', ...key.slice(1)] : by ? ['user_id', ...key] : key;
    const recounted = by === 'month' ? POSTING_MONTH_TOTALS() : POSTING_DAY_TOTALS(by);
    const on = columns.map((c) => `s.${c} = k.${c}`).join(' and ');
    const shown = columns
      .map((c) =>
        c === 'day' || c === 'month'
          ? `to_char(coalesce(k.${c}, s.${c}), 'YYYY-MM-DD')`
          : `coalesce(k.${c}, s.${c})`,
      )
      .map((e, n) => `${e} as ${columns[n]}`)
      .join(', ');
    return rows<Record<string, string | null>>(
      db,
      sql.raw(`select ${shown}, k.amount_paise::text as kept, s.amount_paise::text as summed,
          k.posting_count::text as kept_n, s.posting_count::text as summed_n
        from ${table} k full join (${recounted}) s on ${on}
        where coalesce(k.amount_paise, 0) <> coalesce(s.amount_paise, 0)
          or coalesce(k.posting_count, 0) <> coalesce(s.posting_count, 0)
        order by ${columns.map((_, n) => n + 1).join(', ')}`),
    );
  };
  const detail = (r: Record<string, string | null>) =>
    `${r.day ?? r.month} ${r.user_type}/${r.kind}/${r.transaction_type}/${r.status}: ${r.kept ?? 0}/${r.summed ?? 0} paise in ${r.kept_n ?? 0}/${r.summed_n ?? 0} postings (kept/summed)`;
  return [
    ...(await recount('posting_day_totals', '')).map((r) => ({
      check: 'posting-totals',
      detail: `postings of ${detail(r)}`,
    })),
    ...(await recount('posting_month_totals', 'month')).map((r) => ({
      check: 'posting-month-totals',
      detail: `postings of the month from ${detail(r)}`,
    })),
    ...(await recount('wallet_day_totals', 'user_id, ')).map((r) => ({
      check: 'wallet-totals',
      detail: `postings of wallet ${r.user_id} on ${detail(r)}`,
    })),
  ];
}

/**
 * Walks every wallet's chain in order (keyset paging over the (user, seq) index): the sequence has no gap, each
 * posting's balances follow from the one before (in bigint: balances have no bound), its seal verifies, and the
 * last seal is the wallet's head. Clearing never goes below zero; available goes below zero (the wallet owes) only
 * by a reversal, and no posting that lowers it may leave it there otherwise. A changed, deleted or inserted posting
 * breaks the seal from there on.
 */
async function chainBreaks(db: Queryable, ledgerKey: Buffer): Promise<{ breaks: Break[]; postings: number }> {
  const heads = new Map(
    (await db.select({ userId: wallets.userId, head: wallets.chainHead }).from(wallets)).map((w) => [
      w.userId,
      w.head,
    ]),
  );
  const breaks: Break[] = [];
  let seen = 0;
  let cursor: { userId: string; seq: number } | null = null;
  let current = { userId: '', seq: 0, balance: 0n, clearing: 0n, seal: null as string | null, broken: false };
  const closeWallet = () => {
    if (current.userId && !current.broken && heads.get(current.userId) !== current.seal)
      breaks.push({
        check: 'chain-head',
        detail: `wallet ${current.userId}: the last posting is not the wallet's head`,
      });
  };
  for (;;) {
    const batch: PostingRow[] = await db
      .select(EXACT_POSTING)
      .from(postings)
      .where(
        cursor
          ? or(
              gt(postings.userId, cursor.userId),
              and(eq(postings.userId, cursor.userId), gt(postings.walletSeq, cursor.seq)),
            )
          : undefined,
      )
      .orderBy(asc(postings.userId), asc(postings.walletSeq))
      .limit(5000);
    for (const p of batch) {
      seen++;
      if (p.userId !== current.userId) {
        closeWallet();
        current = { userId: p.userId, seq: 0, balance: 0n, clearing: 0n, seal: null, broken: false };
      }
      if (current.broken) continue;
      const amount = BigInt(p.amountPaise);
      const delta = p.transactionType === 'CREDIT' ? amount : -amount;
      const owedByOther =
        p.balanceAfterPaise < 0n &&
        p.balanceType === 'AVAILABLE' &&
        delta < 0n &&
        p.kind !== 'REVERSAL' &&
        p.kind !== 'TDS';
      if (p.balanceType === 'AVAILABLE') current.balance += delta;
      else current.clearing += delta;
      const problem =
        p.walletSeq !== current.seq + 1
          ? `a gap before posting ${p.walletSeq}`
          : p.balanceAfterPaise !== current.balance || p.clearingBalanceAfterPaise !== current.clearing
            ? `posting ${p.id} records balances that do not follow from the ones before`
            : p.clearingBalanceAfterPaise < 0n || owedByOther
              ? `posting ${p.id} leaves a negative balance`
              : sealPosting(ledgerKey, current.seal, p) !== p.seal
                ? `posting ${p.id} was changed (its seal does not verify)`
                : null;
      if (problem) {
        breaks.push({ check: 'chain', detail: `wallet ${p.userId}: ${problem}` });
        current.broken = true;
        continue;
      }
      current.seq = p.walletSeq;
      current.seal = p.seal;
    }
    if (batch.length < 5000) break;
    const last = batch[batch.length - 1];
    cursor = { userId: last.userId, seq: last.walletSeq };
  }
  closeWallet();
  return { breaks, postings: seen };
}

/**
 * Whether `ledgerKey` is the key that sealed the ledger, judged on the first postings of a few wallets (each seal
 * chains from nothing there): true when one verifies, false when none does, null when nothing is posted yet. One
 * changed posting (which reconcile reports) cannot make the right key look wrong.
 */
export async function sealsVerify(db: Queryable, ledgerKey: Buffer, sample = 3): Promise<boolean | null> {
  const first: PostingRow[] = await db
    .select(EXACT_POSTING)
    .from(postings)
    .where(eq(postings.walletSeq, 1))
    .limit(sample);
  if (first.length === 0) return null;
  return first.some((p) => sealPosting(ledgerKey, null, p) === p.seal);
}

/** What wallets owe the network (the available balances below zero, as a positive sum of paise, as text). */
const OWED = sql`select coalesce(-sum(balance_paise), 0)::text from ${wallets} where balance_paise < 0`;

/** `totals.owed` read now, without a whole reconcile (the Books screen): the same query, in paise. */
export async function owedPaise(db: Queryable): Promise<bigint> {
  const [row] = await rows<{ owed: string }>(db, sql`select (${OWED}) as owed`);
  return BigInt(row.owed);
}

/**
 * Proves the ledger (`npm run reconcile`, `GET ledger/reconcile`): each confirmed sale's postings sum to its
 * amount, each wallet equals the sum of its postings (clearing and available separately), no clearing balance is
 * negative and an available one only by a reversal (the wallet owes: `totals.owed`), the money kept per network
 * (the dashboard's tiles) and the postings' day totals (the lists' money in and out) equal a recount, and no
 * posting was changed. `ok` is false when anything broke; `breaks` says what.
 *
 * Every check reads one snapshot: a read-only REPEATABLE READ transaction, so it can run live, under load, and
 * never compares a wallet with postings written after it was read.
 */
export async function reconcile(db: Db, ledgerKey: Buffer): Promise<ReconcileReport> {
  return inTransaction(db, (tx) => reconcileIn(tx, ledgerKey), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  });
}

async function reconcileIn(db: Queryable, ledgerKey: Buffer): Promise<ReconcileReport> {
  // One connection (the transaction's): the checks run one after the other.
  const sales = await saleBreaks(db);
  const openings = await openingBreaks(db);
  const corrections = await correctionBreaks(db);
  const walletsBroken = await walletBreaks(db);
  const tds = await tdsBreaks(db);
  const networks = await networkMoneyBreaks(db);
  const totals = await postingTotalsBreaks(db);
  const chain = await chainBreaks(db, ledgerKey);
  const [counts] = await rows<{
    confirmed: string;
    reversed: string;
    wallets: string;
    balance: string;
    clearing: string;
    owed: string;
  }>(
    db,
    sql`select
          (select count(*) from ${boughtProducts} where status = 'CONFIRMED') as confirmed,
          (select count(*) from ${boughtProducts} where status = 'REVERSED') as reversed,
          (select count(*) from ${wallets}) as wallets,
          (select coalesce(sum(balance_paise), 0)::text from ${wallets}) as balance,
          (select coalesce(sum(clearing_balance_paise), 0)::text from ${wallets}) as clearing,
          (${OWED}) as owed`,
  );
  const breaks = [
    ...sales,
    ...openings,
    ...corrections,
    ...walletsBroken,
    ...tds,
    ...networks,
    ...totals,
    ...chain.breaks,
  ];
  return {
    ok: breaks.length === 0,
    checkedAt: new Date().toISOString(),
    sales: { confirmed: Number(counts.confirmed), reversed: Number(counts.reversed) },
    postings: chain.postings,
    wallets: Number(counts.wallets),
    totals: {
      balance: paiseToRupees(BigInt(counts.balance)),
      clearingBalance: paiseToRupees(BigInt(counts.clearing)),
      owed: paiseToRupees(BigInt(counts.owed)),
    },
    breaks,
  };
}
