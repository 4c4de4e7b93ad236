import { and, eq, ne, sql } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE } from '../../../shared/dates';
import { formatRupees } from '../../../shared/format';
import { paiseToRupees } from '../../../shared/money';
import { type PayoutInput, SALES_MSG } from '../../../shared/schemas/sales';
import { isUniqueViolation } from '../../db/errors';
import type { Db, Tx } from '../../db/open';
import { pendingCommands, postings, users, wallets } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { badRequest, conflict, notFound } from '../../http/errors';
import type { AuditRecorder } from '../audit/index';
import { notify } from '../notifications/index';
import { EXACT_POSTING, InsufficientBalance, lockWallets, type PostingRow, writePostings } from './ledger';

/**
 * A payout reference as it is compared: trimmed and case-folded, so a bank reference retyped in another case or
 * with spaces around it is the same payout. It is stored as first typed.
 */
export const foldedReference = (reference: string) => reference.trim().toLowerCase();

const priorPayout = async (tx: Tx | Db, reference: string) =>
  (
    await tx
      .select(EXACT_POSTING)
      .from(postings)
      .where(
        and(
          eq(postings.kind, 'PAYOUT'),
          sql`lower(btrim(${postings.reference})) = ${foldedReference(reference)}`,
        ),
      )
      .limit(1)
  )[0];

/** The same reference again is the same payout only for the same user and amount. */
function replayOf(prior: PostingRow, input: PayoutInput) {
  if (prior.userId !== input.userId || prior.amountPaise !== input.amount)
    throw conflict(SALES_MSG.referenceUsed);
  return { posting: prior, replay: true };
}

/**
 * A maker's payouts queue on this transaction lock while one of them is judged against the daily line
 * (PAYOUT_APPROVAL_DAILY_RUPEES), so two at once are counted one after the other, never both against the same total.
 * Taken first: before the reference's lock and the wallet's, by payouts only.
 */
export async function lockPayoutMaker(tx: Tx, makerId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('payout-maker'), hashtext(${makerId}))`);
}

/**
 * What `makerId` has paid out today (the business day, India time) without a second person: its own PAYOUT
 * postings, leaving out those that carry out an approved command (the checker wrote those, after a second look).
 */
export async function unapprovedPayoutsToday(tx: Tx, makerId: string): Promise<bigint> {
  const zone = sql.raw(`'${BUSINESS_TIME_ZONE}'`);
  const [row] = await tx
    .select({ total: sql<string>`coalesce(sum(${postings.amountPaise}), 0)::text` })
    .from(postings)
    .where(
      and(
        eq(postings.kind, 'PAYOUT'),
        eq(postings.createdBy, makerId),
        sql`${postings.createdAt} >= (date_trunc('day', now() at time zone ${zone}) at time zone ${zone})`,
        sql`not exists (select 1 from ${pendingCommands} where ${pendingCommands.postingId} = ${postings.id})`,
      ),
    );
  return BigInt(row?.total ?? 0);
}

/**
 * Refuses (400, the payout's own message) a payout above the user's available balance now: a payout that waits for
 * approval is refused as a direct one is, when it is made. Approval checks again, under the wallet's lock.
 */
export async function refuseAboveAvailable(tx: Tx, userId: string, amountPaise: number) {
  const [row] = await tx
    .select({ balance: sql<string>`${wallets.balancePaise}::text` })
    .from(wallets)
    .where(eq(wallets.userId, userId));
  const available = BigInt(row?.balance ?? 0);
  if (BigInt(amountPaise) > available)
    throw badRequest(SALES_MSG.payoutExceedsBalance(formatRupees(paiseToRupees(available))), 'amount');
}

/** Payouts of one reference (in any case) queue on this transaction lock, taken before any wallet lock. */
export async function lockPayoutReference(tx: Tx, reference: string) {
  // Taken before the wallet lock, by payouts only: no other writer waits on it, so no deadlock.
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext('payout-reference'), hashtext(${foldedReference(reference)}))`,
  );
}

/** A payout command waiting for approval that holds `reference` (other than `except`), if any. */
const pendingHolder = async (tx: Tx, reference: string, except?: string) =>
  (
    await tx
      .select({ id: pendingCommands.id })
      .from(pendingCommands)
      .where(
        and(
          eq(pendingCommands.kind, 'PAYOUT'),
          eq(pendingCommands.status, 'PENDING'),
          sql`lower(btrim(${pendingCommands.reference})) = ${foldedReference(reference)}`,
          except ? ne(pendingCommands.id, except) : undefined,
        ),
      )
      .limit(1)
  )[0];

export interface PayoutOptions {
  audit?: AuditRecorder;
  /** The pending command this payout carries out (its approval): its own reference does not block it. */
  commandId?: string;
}

/**
 * A payout inside the caller's transaction `tx` (recordPayout's, or an approval's): the reference lock, the
 * wallet lock, the replay check, then the DEBIT. A reference held by a payout still waiting for approval is
 * refused (409), as a used one is.
 */
export async function payoutIn(
  tx: Tx,
  ledgerKey: Buffer,
  createdBy: string,
  input: PayoutInput,
  { audit, commandId }: PayoutOptions = {},
): Promise<{ posting: PostingRow; replay: boolean }> {
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId));
  if (!user) throw notFound(SALES_MSG.userNotFound);
  await lockPayoutReference(tx, input.reference);
  const locked = await lockWallets(tx, [input.userId]);
  const prior = await priorPayout(tx, input.reference);
  if (prior) return replayOf(prior, input);
  if (await pendingHolder(tx, input.reference, commandId)) throw conflict(SALES_MSG.referenceUsed);
  try {
    const [posting] = await writePostings(
      tx,
      locked,
      [
        {
          userId: input.userId,
          kind: 'PAYOUT',
          transactionType: 'DEBIT',
          balanceType: 'AVAILABLE',
          status: 'PAID',
          amountPaise: input.amount,
          reference: input.reference.trim(),
        },
      ],
      { ledgerKey, createdBy },
    );
    await audit?.(tx, {
      entityId: posting.id,
      after: { userId: input.userId, amountPaise: input.amount, reference: posting.reference },
    });
    const amount = paiseToRupees(input.amount);
    await notify(tx, 'payout.paid', {
      to: [{ userId: input.userId }],
      data: { amount, reference: posting.reference },
      webhook: {
        postingId: posting.id,
        userId: input.userId,
        amount,
        reference: posting.reference,
        paidAt: posting.createdAt.toISOString(),
      },
    });
    return { posting, replay: false };
  } catch (error) {
    if (error instanceof InsufficientBalance)
      throw badRequest(
        SALES_MSG.payoutExceedsBalance(formatRupees(paiseToRupees(error.available))),
        'amount',
      );
    throw error;
  }
}

/** The payout already recorded under `reference` (trimmed, case-folded), if any. */
export const payoutByReference = (q: Tx | Db, reference: string) => priorPayout(q, reference);

/** Replays `prior` for `input`, or refuses (409) when it was another user's or amount. */
export const replayPayout = replayOf;

/**
 * `wallet/payout`: money paid to a user's bank, a DEBIT of the available balance that can never take it below
 * zero. The reference is an idempotency key, compared trimmed and case-folded: the same reference again returns
 * the first payout and debits nothing. Payouts of one reference (in any case) queue on a transaction lock of the
 * folded reference, and a user's payouts on the wallet's lock, so neither two payouts racing for the same money
 * nor two spellings of one reference can both pass.
 */
export async function recordPayout(
  db: Db,
  ledgerKey: Buffer,
  adminId: string,
  input: PayoutInput,
  audit?: AuditRecorder,
): Promise<{ posting: PostingRow; replay: boolean }> {
  try {
    return await inTransaction(db, (tx) => payoutIn(tx, ledgerKey, adminId, input, { audit }));
  } catch (error) {
    // The same reference for two different users at once: the unique index decides, the loser replays.
    if (!isUniqueViolation(error)) throw error;
    const prior = await priorPayout(db, input.reference);
    if (!prior) throw error;
    return replayOf(prior, input);
  }
}
