import { formatRupees } from '../../../shared/format';
import { paiseToRupees } from '../../../shared/money';
import type { AdjustInput } from '../../../shared/schemas/approvals';
import { SALES_MSG } from '../../../shared/schemas/sales';
import type { Tx } from '../../db/open';
import { conflict } from '../../http/errors';
import type { AuditRecorder } from '../audit/index';
import { InsufficientBalance, lockWallets, type PostingRow, writePostings } from './ledger';

/**
 * A manual adjustment inside the caller's transaction `tx` (an approval's, issue 43): a CREDIT or DEBIT of the
 * user's available balance by the signed `amount`, posted as kind ADJUSTMENT with the note as its reference (the
 * statement's line; the reason stays with the command and the audit trail). A debit never takes available below
 * zero: refused (409, the balance's message) and nothing is written.
 */
export async function adjustIn(
  tx: Tx,
  ledgerKey: Buffer,
  createdBy: string,
  input: Pick<AdjustInput, 'userId' | 'amount' | 'note' | 'reason'>,
  { audit }: { audit?: AuditRecorder } = {},
): Promise<PostingRow> {
  const { userId, amount, note, reason } = input;
  const locked = await lockWallets(tx, [userId]);
  try {
    const [posting] = await writePostings(
      tx,
      locked,
      [
        {
          userId,
          kind: 'ADJUSTMENT',
          transactionType: amount > 0 ? 'CREDIT' : 'DEBIT',
          balanceType: 'AVAILABLE',
          status: 'ADJUSTED',
          amountPaise: Math.abs(amount),
          reference: note,
        },
      ],
      { ledgerKey, createdBy },
    );
    await audit?.(tx, { entityId: posting.id, after: { userId, amountPaise: amount, note, reason } });
    return posting;
  } catch (error) {
    if (error instanceof InsufficientBalance)
      throw conflict(SALES_MSG.adjustmentExceedsBalance(formatRupees(paiseToRupees(error.available))));
    throw error;
  }
}
