/**
 * Money rules both sides share: paise in the database, decimal rupees on the wire, and the one commission split
 * (seed section 3: five commissions that add up to exactly 100%).
 */

/** Who receives each of a product's five commissions, in the order of the product's fields. */
export const COMMISSION_TIERS = [
  'ADMIN',
  'MASTER_DISTRIBUTOR',
  'DISTRIBUTOR',
  'RETAILER',
  'CUSTOMER',
] as const;
export type CommissionTier = (typeof COMMISSION_TIERS)[number];

/** 100% in hundredths of a percent: the commissions are stored as integers that add up to this. */
export const FULL_PERCENT = 10_000;

export const paiseToRupees = (paise: number) => paise / 100;

/** Decimal rupees with at most two places -> integer paise (rounded to the nearest paisa). */
export const rupeesToPaise = (rupees: number) => Math.round(rupees * 100);

/**
 * Splits `amountPaise` by five percentages (hundredths of a percent, summing to 10000) with the largest-remainder
 * method: each tier first gets the floor of its exact share, then the paise left over (at most four) go one
 * each to the tiers with the largest remainders; equal remainders go to the earlier tier (admin first). The
 * shares are never negative and always add up to the amount exactly.
 */
export function splitAmount(amountPaise: number, percents: readonly number[]): number[] {
  if (!Number.isSafeInteger(amountPaise) || amountPaise < 0)
    throw new RangeError('amount must be whole paise');
  if (percents.length !== COMMISSION_TIERS.length) throw new RangeError('five percentages expected');
  if (percents.some((p) => !Number.isInteger(p) || p < 0)) throw new RangeError('percentages must be >= 0');
  if (percents.reduce((a, b) => a + b, 0) !== FULL_PERCENT)
    throw new RangeError('percentages must sum to 100');
  // BigInt: amount x percent can pass 2^53 for large amounts.
  const full = BigInt(FULL_PERCENT);
  const exact = percents.map((p) => BigInt(amountPaise) * BigInt(p));
  const shares = exact.map((e) => Number(e / full));
  let left = amountPaise - shares.reduce((a, b) => a + b, 0);
  const byRemainder = exact
    .map((e, tier) => ({ tier, remainder: Number(e % full) }))
    .sort((a, b) => b.remainder - a.remainder || a.tier - b.tier);
  for (const { tier } of byRemainder) {
    if (left === 0) break;
    shares[tier] += 1;
    left -= 1;
  }
  return shares;
}
