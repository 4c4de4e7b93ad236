import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FULL_PERCENT, splitAmount } from '../../src/shared/money';

/** Five percentages in hundredths (two decimals) that add up to exactly 100%. */
const fivePercents = fc
  .array(fc.integer({ min: 0, max: FULL_PERCENT }), { minLength: 4, maxLength: 4 })
  .map((cuts) => {
    const points = [0, ...cuts.sort((a, b) => a - b), FULL_PERCENT];
    return points.slice(1).map((p, i) => p - points[i]);
  });

describe('the commission split (largest remainder, integer paise)', () => {
  it('gives non-negative shares that add up to the amount exactly, for any amount and percentages', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000_000 }), fivePercents, (amount, percents) => {
        const shares = splitAmount(amount, percents);
        expect(shares).toHaveLength(5);
        expect(shares.every((s) => Number.isSafeInteger(s) && s >= 0)).toBe(true);
        expect(shares.reduce((a, b) => a + b, 0)).toBe(amount);
        // No share is more than one paisa away from its exact value.
        shares.forEach((s, i) => {
          expect(Math.abs(s - (amount * percents[i]) / FULL_PERCENT)).toBeLessThan(1);
        });
      }),
      { seed: 20261122, numRuns: 5_000 },
    );
  });

  it('rounds as docs/architecture.md shows: ₹750.50 at 33.33/16.67/15/25/10', () => {
    expect(splitAmount(75_050, [3333, 1667, 1500, 2500, 1000])).toEqual([
      25_014, 12_511, 11_258, 18_762, 7_505,
    ]);
  });

  it('gives equal remainders to the earlier tier', () => {
    // 1 paisa split five ways at 20% each: admin gets it.
    expect(splitAmount(1, [2000, 2000, 2000, 2000, 2000])).toEqual([1, 0, 0, 0, 0]);
    expect(splitAmount(3, [2000, 2000, 2000, 2000, 2000])).toEqual([1, 1, 1, 0, 0]);
  });

  it('refuses percentages that do not add up to 100 and amounts that are not whole paise', () => {
    expect(() => splitAmount(100, [2000, 2000, 2000, 2000, 1999])).toThrow('percentages must sum to 100');
    expect(() => splitAmount(10.5, [10_000, 0, 0, 0, 0])).toThrow('amount must be whole paise');
    expect(() => splitAmount(100, [10_000, 0, 0, 0])).toThrow('five percentages expected');
  });
});
