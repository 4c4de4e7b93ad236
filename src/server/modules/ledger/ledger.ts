import { randomUUID } from 'node:crypto';
import { getTableColumns, sql } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE } from '../../../shared/dates';
import {
  type PostingKind,
  type PostingStatus,
  STAFF_TYPES,
  type TransactionType,
  UserType,
  type WalletBalance,
} from '../../../shared/enums';
import type { CommissionTier } from '../../../shared/money';
import type { Queryable, Tx } from '../../db/open';
import { postings, wallets } from '../../db/schema';
import { runStatement } from '../../db/statements';
import { WHOLE_NETWORK } from '../network/index';
import { sealPosting } from './seal';

/**
 * The one way money moves (TigerBeetle's and Fineract's rules): every wallet change is an immutable posting
 * written in the same transaction as the wallet's new balances and the counters that sum it, in plain statements,
 * one after the other, in the order their rows are locked: the wallets (user-id order), their postings, then each
 * counter table in turn (COUNTERS), its rows in key order. Concurrent writers queue instead of losing an update,
 * and never deadlock on each other.
 */

/**
 * A posting as the ledger computes it. A posting's amount has a bound (MAX_AMOUNT_RUPEES, far inside the range
 * where a JavaScript number is exact); the balances after it have none, so they are bigint.
 */
export type PostingRow = Omit<
  typeof postings.$inferSelect,
  'balanceAfterPaise' | 'clearingBalanceAfterPaise'
> & {
  balanceAfterPaise: bigint;
  clearingBalanceAfterPaise: bigint;
};

/** Every column of a posting, its balances read exactly (as bigint): select them to get a PostingRow. */
export const EXACT_POSTING = {
  ...getTableColumns(postings),
  balanceAfterPaise: sql<bigint>`${postings.balanceAfterPaise}::text`.mapWith(BigInt),
  clearingBalanceAfterPaise: sql<bigint>`${postings.clearingBalanceAfterPaise}::text`.mapWith(BigInt),
};

/**
 * A wallet as locked for this transaction: what the next posting builds on. The balances are bigint: they have
 * no bound. `balance` (available) is below zero only when a reversal took back money already paid out: the wallet
 * owes it, and its next settled commissions pay it back first.
 */
export interface LockedWallet {
  userId: string;
  userType: number;
  balance: bigint;
  clearing: bigint;
  count: number;
  head: string | null;
}

export interface PostingDraft {
  userId: string;
  kind: PostingKind;
  transactionType: TransactionType;
  balanceType: WalletBalance;
  status: PostingStatus;
  amountPaise: number;
  boughtProductId?: string | null;
  tier?: CommissionTier | null;
  refPostingId?: string | null;
  reference?: string | null;
}

export interface PostingContext {
  /** Seals the postings (derived from the data key). */
  ledgerKey: Buffer;
  /** The admin who made the change (payouts, manual settlement); null for the partner and the job. */
  createdBy?: string | null;
  now?: Date;
}

/** Every column of a posting row as writePostings sends it: field, column, PostgreSQL type. */
const POSTING_COLUMNS: [keyof PostingRow, string, string][] = [
  ['id', 'id', 'uuid'],
  ['userId', 'user_id', 'uuid'],
  ['userType', 'user_type', 'smallint'],
  ['boughtProductId', 'bought_product_id', 'uuid'],
  ['tier', 'tier', 'text'],
  ['kind', 'kind', 'text'],
  ['transactionType', 'transaction_type', 'text'],
  ['balanceType', 'balance_type', 'text'],
  ['status', 'status', 'text'],
  ['amountPaise', 'amount_paise', 'bigint'],
  ['balanceAfterPaise', 'balance_after_paise', 'bigint'],
  ['clearingBalanceAfterPaise', 'clearing_balance_after_paise', 'bigint'],
  ['refPostingId', 'ref_posting_id', 'uuid'],
  ['reference', 'reference', 'text'],
  ['createdBy', 'created_by', 'uuid'],
  ['walletSeq', 'wallet_seq', 'bigint'],
  ['seal', 'seal', 'text'],
  ['createdAt', 'created_at', 'timestamptz'],
];

/** INSERT_POSTINGS' values: one array per column of POSTING_COLUMNS. */
const postingColumns = (rows: PostingRow[]) =>
  POSTING_COLUMNS.map(([field]) => rows.map((row) => row[field]));

/** The calendar day (a date) a posting created at `createdAt` (SQL) counts in. */
export const businessDayOf = (createdAt: string) =>
  `(${createdAt} at time zone '${BUSINESS_TIME_ZONE}')::date`;

/**
 * The networks (uuid[]) whose money the user `u` (SQL alias of users) counts in, besides the whole network: every
 * user on its path, itself included; none for staff, whose path is their own id and who head no network.
 */
const pathScopes = (u: string) =>
  `case when ${u}.type in (${STAFF_TYPES.join(', ')}) then '{}'::uuid[]
    else string_to_array(trim(both '/' from ${u}.path), '/')::uuid[] end`;

/** Where the counters' sums read postings from: the postings table, to recount them all. */
const ALL_POSTINGS = 'postings p';

/**
 * The columns of a posting the counters read, and where writePostings sends them from: the postings just written,
 * as arrays ($1, $2, ...), not read back from the table (a prepared statement's plan for that read, made while the
 * table was small, would be kept as it grows).
 */
const COUNTED: [keyof PostingRow, string, string][] = [
  ['userId', 'user_id', 'uuid'],
  ['userType', 'user_type', 'smallint'],
  ['kind', 'kind', 'text'],
  ['transactionType', 'transaction_type', 'text'],
  ['balanceType', 'balance_type', 'text'],
  ['status', 'status', 'text'],
  ['amountPaise', 'amount_paise', 'bigint'],
  ['createdAt', 'created_at', 'timestamptz'],
];
const WRITTEN = `unnest(${COUNTED.map(([, , type], n) => `$${n + 1}::${type}[]`).join(', ')})
      as p(${COUNTED.map(([, name]) => name).join(', ')})`;

/**
 * Every network's commissions per day, summed from `postings` (all, or those just written) and the users' paths
 * as they are now: what network_commission_days holds (a subtree's moves carry its rows along, so its users count
 * where they are now).
 */
const commissionDaysOf = (postings: string) =>
  `select s.scope_id, ${businessDayOf('p.created_at')} as day, sum(p.amount_paise) as amount_paise
    from ${postings} join users u on u.id = p.user_id
    cross join lateral (select '${WHOLE_NETWORK}'::uuid union all select unnest(${pathScopes('u')})) as s(scope_id)
    where p.kind = 'COMMISSION' group by 1, 2`;

/** Every network's commissions per day, summed from all the postings: the recount of network_commission_days. */
export const NETWORK_COMMISSION_DAYS = commissionDaysOf(ALL_POSTINGS);

/** Every network's clearing balance, summed from its users' wallets: what network_clearing holds. */
export const NETWORK_CLEARING = `select s.scope_id, sum(w.clearing_balance_paise) as clearing_paise
    from wallets w join users u on u.id = w.user_id cross join lateral unnest(${pathScopes('u')}) as s(scope_id)
    group by 1 having sum(w.clearing_balance_paise) <> 0`;

/** The wallets of $1 (uuid[]), locked in user-id order, with their owners' types. */
const LOCK_WALLETS = `select w.user_id as "userId", u.type as "userType", w.balance_paise::text as "balance",
      w.clearing_balance_paise::text as "clearing", w.posting_count as "count", w.chain_head as "head"
    from wallets w join users u on u.id = w.user_id
    where w.user_id = any($1::uuid[]) order by w.user_id for update of w`;

/** The key of posting_day_totals (wallet_day_totals: the user's id and this): a day and a list's filters. */
const DAY_TOTALS_KEY = 'day, user_type, kind, transaction_type, status';
/** The key of posting_month_totals. */
const MONTH_TOTALS_KEY = 'month, user_type, kind, transaction_type, status';

/**
 * Every day's postings per filter, summed from `postings` (all, or those just written): what posting_day_totals
 * holds (`by`: '' for it, 'user_id, ' for wallet_day_totals).
 */
export const POSTING_DAY_TOTALS = (by: '' | 'user_id, ', postings = ALL_POSTINGS) =>
  `select ${by}${businessDayOf('p.created_at')} as day, user_type, kind, transaction_type, status,
      sum(amount_paise) as amount_paise, count(*) as posting_count
    from ${postings} group by 1, 2, 3, 4, 5${by ? ', 6' : ''}`;

/** The month (its first day) a posting created at `createdAt` (SQL) counts in. */
const businessMonthOf = (createdAt: string) => `date_trunc('month', ${businessDayOf(createdAt)})::date`;

/**
 * Every month's postings per filter, summed from `postings` (all, or those just written): what
 * posting_month_totals holds.
 */
export const POSTING_MONTH_TOTALS = (postings = ALL_POSTINGS) =>
  `select ${businessMonthOf('p.created_at')} as month, user_type, kind, transaction_type, status,
      sum(amount_paise) as amount_paise, count(*) as posting_count
    from ${postings} group by 1, 2, 3, 4, 5`;

/**
 * Every retailer's own commissions per month, summed from `postings` (all, or those just written), with its master
 * distributor and distributor as they are now: what retailer_commission_months holds (report/top).
 */
const retailerMonthsOf = (postings: string) =>
  `select p.user_id as retailer_id, ${businessMonthOf('p.created_at')} as month, u.master_distributor_id,
      u.distributor_id, sum(p.amount_paise) as amount_paise
    from ${postings} join users u on u.id = p.user_id
    where p.kind = 'COMMISSION' and p.user_type = ${UserType.RETAILER} group by 1, 2, 3, 4`;

/** Every retailer's commissions per month, summed from all the postings: the recount of retailer_commission_months. */
export const RETAILER_COMMISSION_MONTHS = retailerMonthsOf(ALL_POSTINGS);

/**
 * A bulk load's postings, or writePostings'. Columns travel as arrays ($1, $2, ...; rows by position), so the text
 * stays the same whatever the number of rows: built once, prepared once per connection.
 */
const INSERT_POSTINGS = `insert into postings (${POSTING_COLUMNS.map(([, name]) => name).join(', ')})
    select * from unnest(${POSTING_COLUMNS.map(([, , type], n) => `$${n + 1}::${type}[]`).join(', ')})`;

/** The locked wallets' balances, posting counts and chain heads after their new postings. */
const UPDATE_WALLETS = `update wallets as w set
      balance_paise = v.balance, clearing_balance_paise = v.clearing, posting_count = v.count, chain_head = v.head
    from unnest($1::uuid[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[])
      as v(user_id, balance, clearing, count, head)
    where w.user_id = v.user_id`;

/**
 * An upsert adding the rows `sums` selects (the counter's key, then its amounts) to `table`, in key order: every
 * writer of a counter takes its rows in that order, so two writers of one row queue instead of deadlocking.
 */
const addTo = (table: string, key: string, amounts: string[], sums: string) => {
  const width = key.split(',').length;
  return `insert into ${table} as t (${key}, ${amounts.join(', ')})
    ${sums}
    order by ${Array.from({ length: width }, (_, n) => n + 1).join(', ')}
    on conflict (${key}) do update set ${amounts.map((a) => `${a} = t.${a} + excluded.${a}`).join(', ')}`;
};

/**
 * The counters a posting adds to, in the order writePostings writes them, each read by a list or a tile (who reads
 * which: docs/architecture.md, The write, in lock order). Each adds the postings just written (WRITTEN), summed the
 * way its recount above sums them all; `counts` says whether any of the postings counts in it (a payout moves no
 * clearing and earns no commission), so a statement that would add nothing is not sent. The network counters read
 * the users' paths after the wallet locks: a subtree moves with its wallets locked, so the paths read are the ones
 * the move leaves.
 */
const COUNTERS: { counts: (rows: PostingRow[]) => boolean; text: string }[] = [
  // The dashboard's commission tiles (reports): today and this month, per network.
  {
    counts: (rows) => rows.some((r) => r.kind === 'COMMISSION'),
    text: addTo('network_commission_days', 'scope_id, day', ['amount_paise'], commissionDaysOf(WRITTEN)),
  },
  // The dashboard's clearing tile of a tier user's network (reports).
  {
    counts: (rows) => rows.some((r) => r.balanceType === 'CLEARING'),
    text: addTo(
      'network_clearing',
      'scope_id',
      ['clearing_paise'],
      `select s.scope_id, sum(case when p.transaction_type = 'CREDIT' then p.amount_paise else -p.amount_paise end)
    from ${WRITTEN} join users u on u.id = p.user_id cross join lateral unnest(${pathScopes('u')}) as s(scope_id)
    where p.balance_type = 'CLEARING' group by 1`,
    ),
  },
  // The money in and out of Transactions' whole filter: its partial months' days, then its whole months.
  {
    counts: () => true,
    text: addTo(
      'posting_day_totals',
      DAY_TOTALS_KEY,
      ['amount_paise', 'posting_count'],
      POSTING_DAY_TOTALS('', WRITTEN),
    ),
  },
  {
    counts: () => true,
    text: addTo(
      'posting_month_totals',
      MONTH_TOTALS_KEY,
      ['amount_paise', 'posting_count'],
      POSTING_MONTH_TOTALS(WRITTEN),
    ),
  },
  // The same for one user's postings (My Wallet, Transactions filtered to a user).
  {
    counts: () => true,
    text: addTo(
      'wallet_day_totals',
      `user_id, ${DAY_TOTALS_KEY}`,
      ['amount_paise', 'posting_count'],
      POSTING_DAY_TOTALS('user_id, ', WRITTEN),
    ),
  },
  // Each retailer's own commissions per month, with its chain: the dashboard's top retailers (reports). The chain
  // is written with a new row only; a move rewrites it (followRetailerMoves).
  {
    counts: (rows) => rows.some((r) => r.kind === 'COMMISSION' && r.userType === UserType.RETAILER),
    text: `insert into retailer_commission_months as t
      (retailer_id, month, master_distributor_id, distributor_id, amount_paise)
    ${retailerMonthsOf(WRITTEN)}
    order by 1, 2
    on conflict (retailer_id, month) do update set amount_paise = t.amount_paise + excluded.amount_paise`,
  },
];

/** A posting would take a balance below zero (where only a reversal may); nothing was written. */
export class InsufficientBalance extends Error {
  constructor(
    readonly userId: string,
    readonly balanceType: WalletBalance,
    readonly available: bigint,
  ) {
    super(`insufficient ${balanceType.toLowerCase()} balance`);
  }
}

/**
 * Locks the wallets of `userIds` (FOR UPDATE, ascending user id) and returns them. A user without a wallet row
 * (created before wallets existed in a way this code did not see) gets one first. Read any state that decides
 * what to post only after this returns: it cannot change under the lock.
 */
export async function lockWallets(tx: Tx, userIds: Iterable<string>): Promise<Map<string, LockedWallet>> {
  const ids = [...new Set(userIds)].sort();
  if (ids.length === 0) return new Map();
  type Locked = Omit<LockedWallet, 'balance' | 'clearing'> & { balance: string; clearing: string };
  const lock = async () =>
    (await runStatement<Locked>(tx, LOCK_WALLETS, [ids])).map(
      (r): LockedWallet => ({ ...r, balance: BigInt(r.balance), clearing: BigInt(r.clearing) }),
    );
  let rows = await lock();
  if (rows.length < ids.length) {
    const missing = ids.filter((id) => !rows.some((r) => r.userId === id));
    await tx
      .insert(wallets)
      .values(missing.map((userId) => ({ userId })))
      .onConflictDoNothing();
    rows = await lock();
  }
  return new Map(rows.map((r) => [r.userId, r]));
}

/**
 * Locks the wallets of `userIds` in the ledger's order, as lockWallets does, for a change that must not run beside
 * a posting to them: a subtree's move, which carries the money its networks count (network/money.ts). It returns
 * nothing to post with: postings are written by the ledger's own commands.
 */
export async function holdWallets(tx: Tx, userIds: Iterable<string>): Promise<void> {
  await lockWallets(tx, userIds);
}

/**
 * The next posting of `wallet` (locked by lockWallets, or built in memory by a bulk load such as seed:scale): the
 * balances right after it, its place in the wallet's chain and the seal chaining it to the wallet's previous
 * posting. Advances `wallet` to it. Throws InsufficientBalance, leaving `wallet` as it was, when a balance would go
 * below zero, except the available balance under a REVERSAL (see writePostings).
 */
export function chainPosting(
  wallet: LockedWallet,
  draft: PostingDraft & { id?: string },
  context: PostingContext & { now: Date },
): PostingRow {
  if (!Number.isSafeInteger(draft.amountPaise) || draft.amountPaise <= 0)
    throw new Error('a posting moves a positive whole number of paise');
  const amount = BigInt(draft.amountPaise);
  const delta = draft.transactionType === 'CREDIT' ? amount : -amount;
  const balance = draft.balanceType === 'AVAILABLE' ? wallet.balance + delta : wallet.balance;
  const clearing = draft.balanceType === 'AVAILABLE' ? wallet.clearing : wallet.clearing + delta;
  const after = draft.balanceType === 'AVAILABLE' ? balance : clearing;
  // A reversal, and tax withheld on a commission (a catch-up may be more than is left after payouts), may leave
  // the wallet owing.
  const mayOwe = (draft.kind === 'REVERSAL' || draft.kind === 'TDS') && draft.balanceType === 'AVAILABLE';
  if (after < 0n && delta < 0n && !mayOwe)
    throw new InsufficientBalance(draft.userId, draft.balanceType, after - delta);
  const row: PostingRow = {
    id: draft.id ?? randomUUID(),
    userId: draft.userId,
    userType: wallet.userType,
    boughtProductId: draft.boughtProductId ?? null,
    tier: draft.tier ?? null,
    kind: draft.kind,
    transactionType: draft.transactionType,
    balanceType: draft.balanceType,
    status: draft.status,
    amountPaise: draft.amountPaise,
    balanceAfterPaise: balance,
    clearingBalanceAfterPaise: clearing,
    refPostingId: draft.refPostingId ?? null,
    reference: draft.reference ?? null,
    createdBy: context.createdBy ?? null,
    walletSeq: wallet.count + 1,
    seal: '',
    createdAt: context.now,
  };
  row.seal = sealPosting(context.ledgerKey, wallet.head, row);
  Object.assign(wallet, { balance, clearing, count: row.walletSeq, head: row.seal });
  return row;
}

/**
 * Writes `drafts` against wallets locked by lockWallets, in order: each posting records the wallet's balances
 * right after it and the seal chaining it to the wallet's previous posting. Throws InsufficientBalance (writing
 * nothing) when any balance would go below zero, except the available balance under a REVERSAL or a TDS posting:
 * money taken back after it was paid out, or tax withheld on it, leaves the wallet owing, and nothing else (a payout
 * above all) may take it lower.
 * Updates the locked map in place.
 */
export async function writePostings(
  tx: Tx,
  locked: Map<string, LockedWallet>,
  drafts: PostingDraft[],
  context: PostingContext,
): Promise<PostingRow[]> {
  if (drafts.length === 0) return [];
  const now = context.now ?? new Date();
  const chained = { ...context, now };
  const next = new Map([...locked].map(([id, w]) => [id, { ...w }]));
  const rows: PostingRow[] = drafts.map((draft) => {
    const wallet = next.get(draft.userId);
    if (!wallet) throw new Error(`wallet ${draft.userId} was not locked`);
    return chainPosting(wallet, draft, chained);
  });

  // The wallets (locked already, by lockWallets), the postings, then each counter in turn: the lock order.
  const changed = [...next.values()].filter((w) => w.count !== locked.get(w.userId)?.count);
  const column = <K extends keyof LockedWallet>(key: K) => changed.map((w) => w[key]);
  await runStatement(tx, UPDATE_WALLETS, [
    column('userId'),
    column('balance'),
    column('clearing'),
    column('count'),
    column('head'),
  ]);
  await runStatement(tx, INSERT_POSTINGS, postingColumns(rows));
  const written = COUNTED.map(([field]) => rows.map((row) => row[field]));
  for (const counter of COUNTERS) if (counter.counts(rows)) await runStatement(tx, counter.text, written);
  for (const w of changed) locked.set(w.userId, w);
  return rows;
}

/** Locks the drafts' wallets and writes them: for postings that depend on nothing read under the lock. */
export async function post(tx: Tx, drafts: PostingDraft[], context: PostingContext) {
  const locked = await lockWallets(
    tx,
    drafts.map((d) => d.userId),
  );
  return writePostings(tx, locked, drafts, context);
}

/** A new user's wallet, created with the user (in the same transaction when `q` is one). */
export async function openWallet(q: Queryable, userId: string) {
  await q.insert(wallets).values({ userId }).onConflictDoNothing();
}

/** The wallets of many new users in one statement (a bulk import's batch). */
export async function openWallets(q: Queryable, userIds: string[]) {
  if (userIds.length === 0) return;
  await q
    .insert(wallets)
    .values(userIds.map((userId) => ({ userId })))
    .onConflictDoNothing();
}

/**
 * A bulk load's postings (seed:scale), already chained by chainPosting, written as they are: no wallet is
 * locked or updated and no network's money is added (loadWallets and rebuildNetworkMoney do both once, after).
 * Never for the app's own writes, which go through writePostings.
 */
export async function loadPostings(q: Queryable, rows: PostingRow[]) {
  if (rows.length === 0) return;
  await runStatement(q, INSERT_POSTINGS, postingColumns(rows));
}

/** A bulk load's wallets as chainPosting left them: their balances, posting count and chain head. */
export async function loadWallets(q: Queryable, walletRows: LockedWallet[]) {
  if (walletRows.length === 0) return;
  const column = <K extends keyof LockedWallet>(key: K) => walletRows.map((w) => w[key]);
  await runStatement(
    q,
    `insert into wallets (user_id, balance_paise, clearing_balance_paise, posting_count, chain_head)
      select * from unnest($1::uuid[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[])
      on conflict (user_id) do update set balance_paise = excluded.balance_paise,
        clearing_balance_paise = excluded.clearing_balance_paise, posting_count = excluded.posting_count,
        chain_head = excluded.chain_head`,
    [column('userId'), column('balance'), column('clearing'), column('count'), column('head')],
  );
}

/**
 * Sums the money every network counts (network_commission_days, network_clearing, and each retailer's month in
 * retailer_commission_months) afresh from the postings and wallets: after a bulk load, whose postings did not add to those rows as writePostings does.
 */
export async function rebuildNetworkMoney(q: Queryable) {
  await q.execute(sql.raw('delete from network_commission_days'));
  await q.execute(
    sql.raw(`insert into network_commission_days (scope_id, day, amount_paise) ${NETWORK_COMMISSION_DAYS}`),
  );
  await q.execute(sql.raw('delete from network_clearing'));
  await q.execute(sql.raw(`insert into network_clearing (scope_id, clearing_paise) ${NETWORK_CLEARING}`));
  await q.execute(sql.raw('delete from retailer_commission_months'));
  await q.execute(
    sql.raw(`insert into retailer_commission_months
      (retailer_id, month, master_distributor_id, distributor_id, amount_paise) ${RETAILER_COMMISSION_MONTHS}`),
  );
}

/**
 * A subtree rooted at `subtreePath` (its new path) moved: its retailers' monthly rows (retailer_commission_months)
 * take the master distributor and distributor the move gave them, so the top retailers of a network are those in it
 * now, as its commission tiles are. Run in the move's transaction, with the subtree's wallets held (holdWallets): no
 * posting adds to those rows meanwhile. Planned with its prefix (a path LIKE), not prepared.
 */
export async function followRetailerMoves(tx: Tx, subtreePath: string) {
  await tx.execute(sql`
    update retailer_commission_months m
    set master_distributor_id = u.master_distributor_id, distributor_id = u.distributor_id
    from users u
    where u.path like ${`${subtreePath}%`} and u.type = ${UserType.RETAILER} and m.retailer_id = u.id
      and (m.master_distributor_id is distinct from u.master_distributor_id
        or m.distributor_id is distinct from u.distributor_id)`);
}

/**
 * Sums the postings' totals (posting_day_totals, posting_month_totals, wallet_day_totals) afresh from the postings: after a bulk
 * load, whose postings did not add to those rows as writePostings does.
 */
export async function rebuildPostingTotals(q: Queryable) {
  await q.execute(sql.raw('delete from posting_day_totals'));
  await q.execute(
    sql.raw(
      `insert into posting_day_totals (${DAY_TOTALS_KEY}, amount_paise, posting_count) ${POSTING_DAY_TOTALS('')}`,
    ),
  );
  await q.execute(sql.raw('delete from posting_month_totals'));
  await q.execute(
    sql.raw(
      `insert into posting_month_totals (${MONTH_TOTALS_KEY}, amount_paise, posting_count) ${POSTING_MONTH_TOTALS()}`,
    ),
  );
  await q.execute(sql.raw('delete from wallet_day_totals'));
  await q.execute(
    sql.raw(
      `insert into wallet_day_totals (user_id, ${DAY_TOTALS_KEY}, amount_paise, posting_count) ${POSTING_DAY_TOTALS('user_id, ')}`,
    ),
  );
}
