import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { PostingStatus, TransactionType, UserType } from '../../../shared/enums';
import { paiseToRupees } from '../../../shared/money';
import type { WireTransaction, WireWallet } from '../../../shared/wire';
import { countOf, listPage } from '../../db/list';
import type { Queryable } from '../../db/open';
import { postings, users, wallets } from '../../db/schema';
import type { PostingRow } from './ledger';

type PostingUser = Pick<typeof users.$inferSelect, 'id' | 'name' | 'email' | 'mobile' | 'type'>;

/** A posting on the wire (seed section 3, Transaction): `userId` populated, money in rupees. */
export const toWireTransaction = (p: PostingRow, user: PostingUser): WireTransaction => ({
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

/** Postings matching `where`, newest first unless `order` says otherwise, with their users. */
export async function listTransactionsOf(
  db: Queryable,
  where: SQL | undefined,
  page: { limit: number; offset: number },
  order: SQL[] = [desc(postings.createdAt), desc(postings.id)],
): Promise<{ transactions: WireTransaction[]; total: number }> {
  const { rows, total } = await listPage(
    db
      .select({
        posting: postings,
        user: { id: users.id, name: users.name, email: users.email, mobile: users.mobile, type: users.type },
      })
      .from(postings)
      .innerJoin(users, eq(users.id, postings.userId))
      .$dynamic(),
    db.select(countOf()).from(postings).$dynamic(),
    where,
    page,
    order,
  );
  return { transactions: rows.map((r) => toWireTransaction(r.posting, r.user)), total };
}

export interface TransactionFilter {
  transactionType?: TransactionType;
  userId?: string;
  userType?: UserType;
  boughtProductId?: string;
  status?: PostingStatus;
}

/** `transactions/fetch`: every posting (ADMIN), filtered as the seed's Transaction list asks. */
export const listTransactions = (
  db: Queryable,
  f: TransactionFilter,
  page: { limit: number; offset: number },
) =>
  listTransactionsOf(
    db,
    and(
      f.transactionType ? eq(postings.transactionType, f.transactionType) : undefined,
      f.userId ? eq(postings.userId, f.userId) : undefined,
      f.userType !== undefined ? eq(postings.userType, f.userType) : undefined,
      f.boughtProductId ? eq(postings.boughtProductId, f.boughtProductId) : undefined,
      f.status ? eq(postings.status, f.status) : undefined,
    ),
    page,
  );

/** A wallet's balances in rupees (zero when the user has none yet). */
export async function walletOf(db: Queryable, userId: string): Promise<WireWallet> {
  const [row] = await db
    .select({ balance: wallets.balancePaise, clearing: wallets.clearingBalancePaise })
    .from(wallets)
    .where(eq(wallets.userId, userId));
  return { balance: paiseToRupees(row?.balance ?? 0), clearingBalance: paiseToRupees(row?.clearing ?? 0) };
}

/** Sum of paise as a JS number (bigint sums come back as strings). */
export const sumPaise = (column: SQL | typeof postings.amountPaise) =>
  sql<number>`coalesce(sum(${column}), 0)::bigint`.mapWith(Number);
