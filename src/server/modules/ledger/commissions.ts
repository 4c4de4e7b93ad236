import { and, asc, eq, inArray } from 'drizzle-orm';
import type { CommissionTier } from '../../../shared/money';
import { SALES_MSG } from '../../../shared/schemas/sales';
import type { Tx } from '../../db/open';
import { postings, users } from '../../db/schema';
import { conflict } from '../../http/errors';
import { InsufficientBalance, lockWallets, type PostingDraft, writePostings } from './ledger';
import { recordReturnedTds, tdsReturnDrafts } from './withholding';

/**
 * A sale's money, as the partner's events move it (the sales module applies them, in its transaction): its
 * commissions credited to clearing when it is confirmed, and taken back when it is reversed.
 */

/** Where the money of one confirmed sale goes: a share per tier, frozen on the sale. */
export interface SaleShares {
  saleId: string;
  shares: { tier: CommissionTier; userId: string; paise: number }[];
}

interface SaleContext {
  ledgerKey: Buffer;
  now: Date;
}

/** Confirmation: one CLEARING credit per tier whose share is above zero, pointing at the sale. */
export async function creditCommissions(tx: Tx, sale: SaleShares, context: SaleContext) {
  const drafts = sale.shares
    .filter((s) => s.paise > 0)
    .map(
      (s): PostingDraft => ({
        userId: s.userId,
        kind: 'COMMISSION',
        transactionType: 'CREDIT',
        balanceType: 'CLEARING',
        status: 'CLEARING',
        amountPaise: s.paise,
        boughtProductId: sale.saleId,
        tier: s.tier,
      }),
    );
  const locked = await lockWallets(
    tx,
    drafts.map((d) => d.userId),
  );
  await writePostings(tx, locked, drafts, context);
}

/**
 * Reversal of the confirmed sale `saleId`: each commission is taken back out of clearing, or out of the available
 * balance when it was settled already (decided under the wallet locks, so a settlement cannot slip in between), and
 * the tax withheld on a settled one is given back. A balance the reversal would take below zero where it may not
 * (clearing) refuses it (409, naming whose) and nothing is written.
 */
export async function reverseCommissions(tx: Tx, saleId: string, context: SaleContext) {
  const commissions = await tx
    .select()
    .from(postings)
    .where(and(eq(postings.boughtProductId, saleId), eq(postings.kind, 'COMMISSION')))
    .orderBy(asc(postings.tier));
  const locked = await lockWallets(
    tx,
    commissions.map((c) => c.userId),
  );
  const ids = commissions.map((c) => c.id);
  const settled = new Set(
    ids.length === 0
      ? []
      : (
          await tx
            .select({ ref: postings.refPostingId })
            .from(postings)
            .where(
              and(
                inArray(postings.refPostingId, ids),
                eq(postings.kind, 'SETTLEMENT'),
                eq(postings.balanceType, 'AVAILABLE'),
              ),
            )
        ).map((r) => r.ref),
  );
  const drafts = commissions.map(
    (c): PostingDraft => ({
      userId: c.userId,
      kind: 'REVERSAL',
      transactionType: 'DEBIT',
      balanceType: settled.has(c.id) ? 'AVAILABLE' : 'CLEARING',
      status: 'REVERSED',
      amountPaise: c.amountPaise,
      boughtProductId: saleId,
      tier: c.tier as PostingDraft['tier'],
      refPostingId: c.id,
    }),
  );
  // A settled commission's tax (section 194H) goes back with it: its share, credited to the deductee.
  const tdsBack = await tdsReturnDrafts(
    tx,
    [...settled].filter((id): id is string => id !== null),
  );
  try {
    const rows = await writePostings(tx, locked, [...drafts, ...tdsBack], context);
    await recordReturnedTds(tx, rows, context.now);
  } catch (error) {
    if (!(error instanceof InsufficientBalance)) throw error;
    const [who] = await tx.select({ name: users.name }).from(users).where(eq(users.id, error.userId));
    throw conflict(SALES_MSG.reversalShortfall(who?.name ?? error.userId));
  }
}
