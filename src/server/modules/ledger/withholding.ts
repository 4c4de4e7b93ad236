import type { TdsConfig } from '../../config';
import type { Tx } from '../../db/open';
import { recordReturned, recordWithheld, taxDue, taxToReturn } from '../tds/index';
import { type LockedWallet, type PostingDraft, type PostingRow, writePostings } from './ledger';

/**
 * The tax's postings (section 194H): the TDS debits a settlement withholds and the TDS credits a reversal gives
 * back. What is due and TDS payable's side of it are the tds module's (modules/tds/tds.ts); the postings are the
 * ledger's, written with the wallets the settlement or the reversal locked.
 */

interface WithholdContext {
  ledgerKey: Buffer;
  createdBy?: string | null;
  now: Date;
  tds: TdsConfig;
}

/**
 * After a settlement of `userId`'s commissions (in the same transaction, its wallet locked): withholds what the
 * rule says (taxDue), if anything: a TDS posting per commission taxed, and TDS payable's entries. Returns the tax
 * withheld in paise.
 */
export async function withholdTds(
  tx: Tx,
  locked: Map<string, LockedWallet>,
  userId: string,
  context: WithholdContext,
): Promise<bigint> {
  const wallet = locked.get(userId);
  if (!wallet) return 0n;
  const due = await taxDue(tx, { userId, userType: wallet.userType }, context);
  if (!due) return 0n;
  const rows = await writePostings(
    tx,
    locked,
    due.taxes.map(
      (tax): PostingDraft => ({
        userId,
        kind: 'TDS',
        transactionType: 'DEBIT',
        balanceType: 'AVAILABLE',
        status: 'WITHHELD',
        amountPaise: Number(tax.taxPaise),
        boughtProductId: tax.boughtProductId,
        tier: tax.tier as PostingDraft['tier'],
        refPostingId: tax.commissionId,
      }),
    ),
    { ledgerKey: context.ledgerKey, createdBy: context.createdBy, now: context.now },
  );
  return recordWithheld(
    tx,
    userId,
    due,
    rows.map((row) => row.id),
    context,
  );
}

/**
 * The TDS postings that give back the tax withheld on `commissionIds` (being reversed, their wallets locked):
 * one CREDIT of the available balance per tax withheld and not yet given back. Write them with the reversal's
 * postings, then call recordReturnedTds with the rows written.
 */
export async function tdsReturnDrafts(tx: Tx, commissionIds: string[]): Promise<PostingDraft[]> {
  return (await taxToReturn(tx, commissionIds)).map((t) => ({
    userId: t.userId,
    kind: 'TDS',
    transactionType: 'CREDIT',
    balanceType: 'AVAILABLE',
    status: 'REVERSED',
    amountPaise: t.amountPaise,
    boughtProductId: t.boughtProductId,
    tier: t.tier as PostingDraft['tier'],
    refPostingId: t.commissionId,
  }));
}

/** TDS payable's side of the tax given back by `rows` (the TDS credits among the postings just written). */
export async function recordReturnedTds(tx: Tx, rows: PostingRow[], now: Date) {
  await recordReturned(
    tx,
    rows
      .filter((r) => r.kind === 'TDS' && r.transactionType === 'CREDIT')
      .map((r) => ({
        postingId: r.id,
        userId: r.userId,
        commissionId: r.refPostingId,
        amountPaise: r.amountPaise,
      })),
    now,
  );
}
