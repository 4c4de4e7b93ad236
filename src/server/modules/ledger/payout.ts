import { and, eq } from 'drizzle-orm';
import { formatRupees } from '../../../shared/format';
import { paiseToRupees } from '../../../shared/money';
import { type PayoutInput, SALES_MSG } from '../../../shared/schemas/sales';
import type { Db, Tx } from '../../db/open';
import { postings, users } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../http/errors';
import type { AuditRecorder } from '../audit/record';
import { InsufficientBalance, lockWallets, type PostingRow, writePostings } from './ledger';

const priorPayout = async (tx: Tx | Db, reference: string) =>
  (
    await tx
      .select()
      .from(postings)
      .where(and(eq(postings.kind, 'PAYOUT'), eq(postings.reference, reference)))
      .limit(1)
  )[0];

/** The same reference again is the same payout only for the same user and amount. */
function replayOf(prior: PostingRow, input: PayoutInput) {
  if (prior.userId !== input.userId || prior.amountPaise !== input.amount)
    throw conflict(SALES_MSG.referenceUsed);
  return { posting: prior, replay: true };
}

/**
 * `wallet/payout`: money paid to a user's bank, a DEBIT of the available balance that can never take it below
 * zero. The reference is an idempotency key: the same reference again returns the first payout and debits
 * nothing. Judged under the wallet's lock, so two payouts racing for the same money cannot both pass.
 */
export async function recordPayout(
  db: Db,
  ledgerKey: Buffer,
  adminId: string,
  input: PayoutInput,
  audit?: AuditRecorder,
): Promise<{ posting: PostingRow; replay: boolean }> {
  try {
    return await inTransaction(db, async (tx) => {
      const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId));
      if (!user) throw notFound(SALES_MSG.userNotFound);
      const locked = await lockWallets(tx, [input.userId]);
      const prior = await priorPayout(tx, input.reference);
      if (prior) return replayOf(prior, input);
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
              reference: input.reference,
            },
          ],
          { ledgerKey, createdBy: adminId },
        );
        await audit?.(tx, {
          entityId: posting.id,
          after: { userId: input.userId, amountPaise: input.amount, reference: input.reference },
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
    });
  } catch (error) {
    // The same reference for two different users at once: the unique index decides, the loser replays.
    if (!isUniqueViolation(error)) throw error;
    const prior = await priorPayout(db, input.reference);
    if (!prior) throw error;
    return replayOf(prior, input);
  }
}
