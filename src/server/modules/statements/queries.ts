import { and, eq, sql } from 'drizzle-orm';
import type { PostingKind, TransactionType, WalletBalance } from '../../../shared/enums';
import { TIER_TYPES, type UserType } from '../../../shared/enums';
import { maskMobile } from '../../../shared/identity';
import { can } from '../../../shared/roles';
import { STATEMENT_MSG } from '../../../shared/schemas/statements';
import type { Queryable } from '../../db/open';
import { users } from '../../db/schema';
import { notFound } from '../../http/errors';
import type { SessionUser } from '../account/index';
import { businessDayOf } from '../ledger/index';
import { networkScope } from '../network/index';

/** Balances (paise, exact) at one moment: available and clearing. */
export interface Balances {
  balance: bigint;
  clearing: bigint;
}

/** One posting of the statement, its money in exact paise. */
export interface StatementPosting {
  id: string;
  createdAt: Date;
  /** India's calendar day and time of day. */
  date: string;
  time: string;
  kind: PostingKind;
  transactionType: TransactionType;
  balanceType: WalletBalance;
  reference: string | null;
  boughtProductId: string | null;
  product: string | null;
  customer: { name: string; mobile: string | null } | null;
  amount: bigint;
  /** The TDS of a TDS line: withheld > 0, given back < 0; null on every other line. */
  tax: bigint | null;
  after: Balances;
}

export interface MonthStatement {
  user: { id: string; name: string; type: number };
  month: string;
  from: string;
  to: string;
  opening: Balances;
  closing: Balances;
  lines: StatementPosting[];
}

/** India's offset from UTC (no daylight saving): the business time zone of the ledger (businessDayOf). */
const INDIA_OFFSET_MS = 330 * 60_000;

/** A month's bounds [from, to) as instants, and its first and last day, in India's calendar. */
export function monthBounds(month: string) {
  const year = Number(month.slice(0, 4));
  const index = Number(month.slice(5, 7)) - 1;
  const from = new Date(Date.UTC(year, index, 1) - INDIA_OFFSET_MS);
  const to = new Date(Date.UTC(year, index + 1, 1) - INDIA_OFFSET_MS);
  const lastDay = new Date(Date.UTC(year, index + 1, 0)).toISOString().slice(0, 10);
  return { from, to, fromDay: `${month}-01`, toDay: lastDay };
}

/**
 * Whose statement the viewer may read: its own, or (staff: the role table's otherStatements) any tier user in its
 * network (networkScope). Another's, or one outside the network, is as if it did not exist (404, as account/fetch answers);
 * customers, employees and admins have no statement.
 */
export async function statementOwner(db: Queryable, viewer: SessionUser, userId: string) {
  if (userId !== viewer.id && !can(viewer.type as UserType, 'otherStatements', 'read'))
    throw notFound(STATEMENT_MSG.userNotFound);
  const [user] = await db
    .select({ id: users.id, name: users.name, type: users.type })
    .from(users)
    .where(and(eq(users.id, userId), networkScope(viewer)))
    .limit(1);
  if (!user) throw notFound(STATEMENT_MSG.userNotFound);
  if (!TIER_TYPES.includes(user.type as UserType)) throw notFound(STATEMENT_MSG.noStatement);
  return user;
}

interface LineRow extends Record<string, unknown> {
  id: string;
  created_at: Date | string;
  day: string;
  time: string;
  kind: PostingKind;
  transaction_type: TransactionType;
  balance_type: WalletBalance;
  reference: string | null;
  bought_product_id: string | null;
  utm_code: string | null;
  product: string | null;
  customer_name: string | null;
  customer_mobile: string | null;
  amount: string;
  balance: string;
  clearing: string;
}

const rowsOf = async <Row>(db: Queryable, query: ReturnType<typeof sql>) =>
  (await db.execute(query)).rows as unknown as Row[];

/**
 * A user's statement for a month (India's calendar): every posting of its wallet created in the month, in the
 * wallet's own order (wallet_seq), with its sale's product and customer; the opening balances are those stored
 * after the last posting before the month (zero without one), the closing those after the month's last line (the
 * opening without one). Every figure is the postings' own (their balance_after columns), read as text into bigint.
 */
export async function monthStatement(
  db: Queryable,
  user: { id: string; name: string; type: number },
  month: string,
): Promise<MonthStatement> {
  const { from, to, fromDay, toDay } = monthBounds(month);
  const [before] = await rowsOf<{ balance: string; clearing: string }>(
    db,
    sql`select balance_after_paise::text as balance, clearing_balance_after_paise::text as clearing
      from postings where user_id = ${user.id} and created_at < ${from.toISOString()}
      order by created_at desc, wallet_seq desc limit 1`,
  );
  const rows = await rowsOf<LineRow>(
    db,
    sql`select p.id, p.created_at, ${sql.raw(businessDayOf('p.created_at'))}::text as day,
        to_char(p.created_at at time zone 'Asia/Kolkata', 'HH24:MI:SS') as time,
        p.kind, p.transaction_type, p.balance_type, p.reference, p.bought_product_id, b.utm_code,
        pr.name as product, c.name as customer_name, c.mobile as customer_mobile,
        p.amount_paise::text as amount, p.balance_after_paise::text as balance,
        p.clearing_balance_after_paise::text as clearing
      from postings p
      left join bought_products b on b.id = p.bought_product_id
      left join products pr on pr.id = b.product_id
      left join users c on c.id = b.customer_id
      where p.user_id = ${user.id} and p.created_at >= ${from.toISOString()} and p.created_at < ${to.toISOString()}
      order by p.wallet_seq`,
  );
  const opening: Balances = {
    balance: BigInt(before?.balance ?? 0),
    clearing: BigInt(before?.clearing ?? 0),
  };
  const lines = rows.map((r): StatementPosting => {
    const amount = BigInt(r.amount);
    return {
      id: r.id,
      createdAt: new Date(r.created_at),
      date: r.day,
      time: r.time,
      kind: r.kind,
      transactionType: r.transaction_type,
      balanceType: r.balance_type,
      reference: r.reference ?? r.utm_code,
      boughtProductId: r.bought_product_id,
      product: r.product,
      customer:
        r.customer_name === null
          ? null
          : { name: r.customer_name, mobile: r.customer_mobile ? maskMobile(r.customer_mobile) : null },
      amount,
      tax: r.kind === 'TDS' ? (r.transaction_type === 'DEBIT' ? amount : -amount) : null,
      after: { balance: BigInt(r.balance), clearing: BigInt(r.clearing) },
    };
  });
  return {
    user,
    month,
    from: fromDay,
    to: toDay,
    opening,
    closing: lines.at(-1)?.after ?? opening,
    lines,
  };
}
