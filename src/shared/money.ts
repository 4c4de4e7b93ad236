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

/**
 * Paise -> decimal rupees as a JSON number. A bigint (a balance or a sum, which have no bound) is divided exactly
 * through its decimal text, so the answer is the number nearest the exact rupees; small numbers divide as before.
 */
export function paiseToRupees(paise: number | bigint): number {
  if (typeof paise === 'number' && Number.isSafeInteger(paise)) return paise / 100;
  return Number(paiseToDecimal(BigInt(paise)));
}

/**
 * Paise -> exact decimal rupees as text ('-1234.50'), from the bigint: no JavaScript number in between. What a CSV
 * writes, and what formatRupees formats exactly.
 */
export function paiseToDecimal(paise: bigint): string {
  const sign = paise < 0n ? '-' : '';
  const abs = paise < 0n ? -paise : paise;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/**
 * The default bound on a product's amount and on a payout: 1 crore rupees (1,00,00,000 rupees = 10^9 paise). The
 * server's bound is configured (MAX_AMOUNT_RUPEES); the panel's forms check this one, the server the configured one.
 */
export const DEFAULT_MAX_AMOUNT_PAISE = 1_000_000_000;

/**
 * The highest bound the configuration accepts: 10^13 rupees, whose paise (10^15) and every share of them stay far
 * inside the range where a JavaScript number is exact (2^53); sums of them are bigint or SQL numeric.
 */
export const MAX_AMOUNT_CEILING_PAISE = 1_000_000_000_000_000;

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
  // All in BigInt: amount x percent passes 2^53 long before the amount does.
  const full = BigInt(FULL_PERCENT);
  const amount = BigInt(amountPaise);
  const exact = percents.map((p) => amount * BigInt(p));
  const shares = exact.map((e) => e / full);
  let left = amount - shares.reduce((a, b) => a + b, 0n);
  const byRemainder = exact
    .map((e, tier) => ({ tier, remainder: e % full }))
    .sort((a, b) => (a.remainder === b.remainder ? a.tier - b.tier : a.remainder > b.remainder ? -1 : 1));
  for (const { tier } of byRemainder) {
    if (left === 0n) break;
    shares[tier] += 1n;
    left -= 1n;
  }
  // Each share is at most the amount, a safe integer: exact as a number.
  return shares.map(Number);
}
