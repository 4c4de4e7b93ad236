/**
 * Money and percentages are decimals with at most two places. They are compared as integer hundredths so
 * that 33.33 + 33.33 + 33.34 is exactly 100 and 0.1 + 0.2 style splits never drift.
 */
const TWO_PLACES = /^\d+(\.\d{1,2})?$/;

/** `'12.5'` or `12.5` -> 1250; null for anything that is not a non-negative number with at most 2 decimals. */
export function toHundredths(value: unknown): number | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    value = String(value);
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!TWO_PLACES.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  const result = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(result) ? result : null;
}

/** 1250 -> 12.5 (a JSON number with at most two decimals). */
export const fromHundredths = (hundredths: number) => hundredths / 100;
