import { createHmac } from 'node:crypto';
import type { postings } from '../../db/schema';

type Paise = 'amountPaise' | 'balanceAfterPaise' | 'clearingBalanceAfterPaise';
/** A posting's fields; its money as a number or a bigint (the same digits either way). */
type SealedFields = Omit<typeof postings.$inferSelect, 'seal' | Paise> & Record<Paise, number | bigint>;

/** JSON text of an array of plain values, a bigint written as its digits, as JSON writes a number. */
const jsonArray = (values: unknown[]) =>
  `[${values.map((v) => (typeof v === 'bigint' ? v.toString() : v === undefined ? 'null' : JSON.stringify(v))).join(',')}]`;

/**
 * A posting's seal: HMAC-SHA-256 (key derived from the data key) over the seal of the wallet's previous posting
 * and every field of this one. Changing, removing or inserting any posting breaks the chain from there on,
 * and without the key the chain cannot be rebuilt, so reconciliation proves no posting was changed.
 */
export function sealPosting(key: Buffer, previousSeal: string | null, p: SealedFields): string {
  const fields = [
    previousSeal ?? '',
    p.id,
    p.userId,
    p.walletSeq,
    p.kind,
    p.transactionType,
    p.balanceType,
    p.status,
    p.amountPaise,
    p.balanceAfterPaise,
    p.clearingBalanceAfterPaise,
    p.boughtProductId,
    p.tier,
    p.refPostingId,
    p.reference,
    p.createdBy,
    p.createdAt.toISOString(),
  ];
  return createHmac('sha256', key).update(jsonArray(fields)).digest('hex');
}
