import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PostingStatus, TransactionType, UserType } from '../../../shared/enums';
import { paiseToRupees } from '../../../shared/money';
import type { WireTransaction, WireWallet } from '../../../shared/wire';
import { keyFields, listPage, type SortWhitelist, type TotalSource } from '../../db/list';
import type { Queryable } from '../../db/open';
import { postings, users, wallets } from '../../db/schema';
import { runStatement } from '../../db/statements';
import type { PostingRow } from './ledger';

type PostingUser = Pick<typeof users.$inferSelect, 'id' | 'name' | 'email' | 'mobile' | 'type'>;

/** A posting whose balances were computed (bigint) or read for display. */
type ShownPosting = Omit<PostingRow, 'balanceAfterPaise' | 'clearingBalanceAfterPaise'> &
  Record<'balanceAfterPaise' | 'clearingBalanceAfterPaise', number | bigint>;

/** A posting on the wire (seed section 3, Transaction): `userId` populated, money in rupees. */
export const toWireTransaction = (p: ShownPosting, user: PostingUser): WireTransaction => ({
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
        })
        .from(found.keys)
        .innerJoin(postings, eq(postings.id, found.id))
        .innerJoin(users, eq(users.id, postings.userId))
        .orderBy(...order),
  });
  return { transactions: rows.map((r) => toWireTransaction(r.posting, r.user)), total, capped };
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
}

/** `transactions/fetch`: every posting (ADMIN), filtered as the seed's Transaction list asks. */
export function listTransactions(
  db: Queryable,
  f: TransactionFilter,
  page: { limit: number; offset: number },
) {
  const where = and(
    f.transactionType ? eq(postings.transactionType, f.transactionType) : undefined,
    f.userId ? eq(postings.userId, f.userId) : undefined,
    f.userType !== undefined ? eq(postings.userType, f.userType) : undefined,
    f.boughtProductId ? eq(postings.boughtProductId, f.boughtProductId) : undefined,
    f.status ? eq(postings.status, f.status) : undefined,
  );
  // One user's postings, unfiltered otherwise: its wallet knows how many.
  const oneWallet =
    !f.transactionType && f.userType === undefined && !f.boughtProductId && !f.status ? f.userId : undefined;
  return listTransactionsOf(db, where, page, oneWallet ? { total: postingCountOf(oneWallet) } : {});
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

/** `wallet/fetch`: one user's own postings, of one type if asked; unfiltered, its wallet knows how many. */
export function listWalletTransactions(
  db: Queryable,
  userId: string,
  transactionType: TransactionType | undefined,
  page: { limit: number; offset: number },
) {
  const where = and(
    eq(postings.userId, userId),
    transactionType ? eq(postings.transactionType, transactionType) : undefined,
  );
  return listTransactionsOf(db, where, page, {
    sort: WALLET_SORT,
    ...(transactionType ? {} : { total: postingCountOf(userId) }),
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
