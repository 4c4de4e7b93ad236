import { and, eq, gte, lt, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE } from '../../../shared/dates';
import type { PostingStatus, TransactionType, UserType } from '../../../shared/enums';
import { paiseToRupees } from '../../../shared/money';
import type { WireTransaction, WireWallet } from '../../../shared/wire';
import { keyFields, listPage, type SortWhitelist, type TotalSource } from '../../db/list';
import type { Queryable } from '../../db/open';
import {
  boughtProducts,
  postingDayTotals,
  postingMonthTotals,
  postings,
  users,
  walletDayTotals,
  wallets,
} from '../../db/schema';
import { runStatement } from '../../db/statements';
import type { PostingRow } from './ledger';

type PostingUser = Pick<typeof users.$inferSelect, 'id' | 'name' | 'email' | 'mobile' | 'type'>;

/** A posting whose balances were computed (bigint) or read for display. */
type ShownPosting = Omit<PostingRow, 'balanceAfterPaise' | 'clearingBalanceAfterPaise'> &
  Record<'balanceAfterPaise' | 'clearingBalanceAfterPaise', number | bigint>;

/**
 * A posting on the wire (seed section 3, Transaction): `userId` populated, money in rupees; `saleReference`, the
 * sale's utmCode, when the list read it.
 */
export const toWireTransaction = (
  p: ShownPosting,
  user: PostingUser,
  saleReference?: string | null,
): WireTransaction => ({
  _id: p.id,
  userId: {
    _id: user.id,
    name: user.name,
    email: { address: user.email },
    mobile: { number: user.mobile },
    type: user.type as UserType,
  },
  amount: paiseToRupees(p.amountPaise),
  transactionType: p.transactionType as WireTransaction['transactionType'],
  balanceType: p.balanceType as WireTransaction['balanceType'],
  kind: p.kind as WireTransaction['kind'],
  status: p.status as WireTransaction['status'],
  balance: paiseToRupees(p.balanceAfterPaise),
  clearingBalance: paiseToRupees(p.clearingBalanceAfterPaise),
  tier: p.tier as WireTransaction['tier'],
  boughtProductId: p.boughtProductId,
  refPostingId: p.refPostingId,
  reference: p.reference,
  createdAt: p.createdAt.toISOString(),
  ...(saleReference !== undefined ? { saleReference } : {}),
});

/** The postings lists' order: newest first, or (a sale's page) oldest first. */
const POSTING_SORT = (order: 'ASC' | 'DESC' = 'DESC'): SortWhitelist => ({
  columns: { createdAt: postings.createdAt },
  default: 'createdAt',
  defaultOrder: order,
  id: postings.id,
});

/**
 * Postings matching `where`, newest first unless `order` says otherwise, with their users: the page is found on
 * the postings' indexes, the users joined for its rows only. The total is counted up to the cap, unless the
 * caller knows it (a wallet's posting count). Every filter of a postings list is an equality the postings'
 * indexes serve: the page is a prepared statement.
 */
export async function listTransactionsOf(
  db: Queryable,
  where: SQL | undefined,
  page: { limit: number; offset: number },
  opts: { order?: 'ASC' | 'DESC'; total?: TotalSource; sort?: SortWhitelist } = {},
): Promise<{ transactions: WireTransaction[]; total: number; capped: boolean }> {
  const { rows, total, capped } = await listPage(db, {
    keys: (sortKey) => db.select(keyFields(postings.id, sortKey)).from(postings).$dynamic(),
    where,
    equalities: true,
    prepared: 'transactions',
    page,
    sort: opts.sort ?? POSTING_SORT(opts.order),
    total: opts.total ?? 'capped',
    rows: (found, order, total) =>
      db
        .select({
          total,
          posting: postings,
          user: {
            id: users.id,
            name: users.name,
            email: users.email,
            mobile: users.mobile,
            type: users.type,
          },
          saleReference: boughtProducts.utmCode,
        })
        .from(found.keys)
        .innerJoin(postings, eq(postings.id, found.id))
        .innerJoin(users, eq(users.id, postings.userId))
        .leftJoin(boughtProducts, eq(boughtProducts.id, postings.boughtProductId))
        .orderBy(...order),
  });
  return {
    transactions: rows.map((r) => toWireTransaction(r.posting, r.user, r.saleReference)),
    total,
    capped,
  };
}

/** A wallet's posting count, kept with the wallet: the exact total of one user's postings, for free. */
const postingCountOf = (userId: string): TotalSource => ({
  kept: sql`coalesce((select ${wallets.postingCount} from ${wallets} where ${wallets.userId} = ${userId}), 0)`,
});

export interface TransactionFilter {
  transactionType?: TransactionType;
  userId?: string;
  userType?: UserType;
  boughtProductId?: string;
  status?: PostingStatus;
  /** Days in the business time zone (YYYY-MM-DD), both included. */
  from?: string;
  to?: string;
}

/** The first instant of `day` (YYYY-MM-DD) in the business time zone: where businessDayOf's day begins. */
const dayStart = (day: SQL) => sql`((${day})::timestamp at time zone ${sql.raw(`'${BUSINESS_TIME_ZONE}'`)})`;

/**
 * The postings of a filter. A day range is a range of `created_at`: every postings index ends in (created_at, id),
 * so it narrows the walk of whichever index serves the filter's equality, and the order stays the index's.
 */
function postingsWhere(f: TransactionFilter) {
  return and(
    f.transactionType ? eq(postings.transactionType, f.transactionType) : undefined,
    f.userId ? eq(postings.userId, f.userId) : undefined,
    f.userType !== undefined ? eq(postings.userType, f.userType) : undefined,
    f.boughtProductId ? eq(postings.boughtProductId, f.boughtProductId) : undefined,
    f.status ? eq(postings.status, f.status) : undefined,
    f.from ? sql`${postings.createdAt} >= ${dayStart(sql`${f.from}::date`)}` : undefined,
    f.to ? sql`${postings.createdAt} < ${dayStart(sql`${f.to}::date + 1`)}` : undefined,
  );
}

/** `transactions/fetch`: every posting (ADMIN), filtered as the seed's Transaction list asks, and by days. */
export function listTransactions(
  db: Queryable,
  f: TransactionFilter,
  page: { limit: number; offset: number },
) {
  // One user's postings, unfiltered otherwise: its wallet knows how many.
  const oneWallet =
    !f.transactionType && f.userType === undefined && !f.boughtProductId && !f.status && !f.from && !f.to
      ? f.userId
      : undefined;
  return listTransactionsOf(
    db,
    postingsWhere(f),
    page,
    oneWallet ? { total: postingCountOf(oneWallet) } : {},
  );
}

/**
 * The money into and out of the wallets a list's whole filter matches, in rupees: commissions, adjustments, payouts,
 * reversals and TDS. A settlement moves money between a wallet's own balances (clearing to available) and counts in
 * neither (issue 53: each settlement counted once as a credit and once as a debit).
 */
export interface PostingTotals {
  moneyIn: number;
  moneyOut: number;
}

/** The kind of posting that only moves money between a wallet's balances: left out of the totals. */
const BETWEEN_BALANCES = 'SETTLEMENT';

/** A day (YYYY-MM-DD) moved by `months` months, at the first of its month: firstOfMonth('2026-11-17', 1) = '2026-12-01'. */
const firstOfMonth = (day: string, months = 0) => {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
};

/** The day after `day` (YYYY-MM-DD). */
const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The money in (credits) and out (debits) of every posting a filter matches but settlements, never read from the postings but for one sale's: from
 * the totals the ledger keeps with every posting, a range of days read as its whole months (posting_month_totals)
 * and the days of its partial months (posting_day_totals), so even a year is a few hundred rows; one user's from
 * its days (wallet_day_totals). Summed exactly in the database (bigint), read as text.
 */
export async function postingTotals(db: Queryable, f: TransactionFilter): Promise<PostingTotals> {
  const sums = (amount: SQL | unknown, type: SQL | unknown) => ({
    moneyIn: sql<string>`coalesce(sum(${amount}) filter (where ${type} = 'CREDIT'), 0)::text`,
    moneyOut: sql<string>`coalesce(sum(${amount}) filter (where ${type} = 'DEBIT'), 0)::text`,
  });
  type Kept = typeof postingDayTotals | typeof postingMonthTotals | typeof walletDayTotals;
  const equalities = (t: Kept) => [
    ne(t.kind, BETWEEN_BALANCES),
    f.transactionType ? eq(t.transactionType, f.transactionType) : undefined,
    f.userType !== undefined ? eq(t.userType, f.userType) : undefined,
    f.status ? eq(t.status, f.status) : undefined,
  ];
  type Sums = { moneyIn: string; moneyOut: string };
  const read = async (query: Promise<Sums[]>) => (await query)[0];
  let found: Sums[];
  if (f.boughtProductId) {
    // A sale's postings are a handful (its commissions, their settlements, tax, a reversal): summed as they are.
    found = [
      await read(
        db
          .select(sums(postings.amountPaise, postings.transactionType))
          .from(postings)
          .where(and(postingsWhere(f), ne(postings.kind, BETWEEN_BALANCES))),
      ),
    ];
  } else if (f.userId) {
    const t = walletDayTotals;
    found = [
      await read(
        db
          .select(sums(t.amountPaise, t.transactionType))
          .from(t)
          .where(
            and(
              eq(t.userId, f.userId),
              ...equalities(t),
              f.from ? gte(t.day, f.from) : undefined,
              f.to ? lte(t.day, f.to) : undefined,
            ),
          ),
      ),
    ];
  } else {
    // The whole months of the range: from the first month that starts in it to the last that ends in it.
    const wholeFrom = f.from ? (f.from.endsWith('-01') ? f.from : firstOfMonth(f.from, 1)) : undefined;
    const wholeUntil = f.to ? firstOfMonth(nextDay(f.to)) : undefined;
    const m = postingMonthTotals;
    const d = postingDayTotals;
    found = [
      await read(
        db
          .select(sums(m.amountPaise, m.transactionType))
          .from(m)
          .where(
            and(
              ...equalities(m),
              wholeFrom ? gte(m.month, wholeFrom) : undefined,
              wholeUntil ? lt(m.month, wholeUntil) : undefined,
            ),
          ),
      ),
      await read(
        db
          .select(sums(d.amountPaise, d.transactionType))
          .from(d)
          .where(
            and(
              ...equalities(d),
              f.from ? gte(d.day, f.from) : undefined,
              f.to ? lte(d.day, f.to) : undefined,
              // The days outside the whole months (none when the range is whole months or open).
              or(
                wholeFrom ? lt(d.day, wholeFrom) : sql`false`,
                wholeUntil ? gte(d.day, wholeUntil) : sql`false`,
              ),
            ),
          ),
      ),
    ];
  }
  const total = (key: keyof Sums) => found.reduce((sum, row) => sum + BigInt(row?.[key] ?? 0), 0n);
  return { moneyIn: paiseToRupees(total('moneyIn')), moneyOut: paiseToRupees(total('moneyOut')) };
}

/**
 * A wallet's statement: newest first in the wallet's own order, its chain (`wallet_seq`, index
 * postings_wallet_seq_key), so each row's balances are the row below's plus or minus its amount. By time and
 * then id they were not: the postings of one transaction share their time (a settlement writes two for each
 * commission), and their random ids put the balances out of order.
 */
const WALLET_SORT: SortWhitelist = {
  columns: { createdAt: postings.walletSeq },
  default: 'createdAt',
  defaultOrder: 'DESC',
  id: postings.id,
};

/**
 * `wallet/fetch`: one user's own postings, of one type and within days if asked; unfiltered, its wallet knows how
 * many. Within days they are in time order (the user's (created_at, id) index), as the transaction list shows
 * them: the wallet's chain has no index by time, and a range of days long past would walk it from its head.
 */
export function listWalletTransactions(
  db: Queryable,
  userId: string,
  f: Pick<TransactionFilter, 'transactionType' | 'from' | 'to'>,
  page: { limit: number; offset: number },
) {
  const where = postingsWhere({ ...f, userId });
  const days = Boolean(f.from || f.to);
  return listTransactionsOf(db, where, page, {
    ...(days ? {} : { sort: WALLET_SORT }),
    ...(f.transactionType || days ? {} : { total: postingCountOf(userId) }),
  });
}

/** A wallet's balances in rupees (zero when the user has none yet). */
export async function walletOf(db: Queryable, userId: string): Promise<WireWallet> {
  // A key look-up beside every wallet page: a prepared statement (db/statements.ts). Read as text: a balance has
  // no bound (bigint), and may be below zero (the wallet owes).
  const [row] = await runStatement<{ balance: string; clearing: string }>(
    db,
    'select balance_paise::text as balance, clearing_balance_paise::text as clearing from wallets where user_id = $1',
    [userId],
  );
  return {
    balance: paiseToRupees(BigInt(row?.balance ?? 0)),
    clearingBalance: paiseToRupees(BigInt(row?.clearing ?? 0)),
  };
}
