/**
 * Display formats of seed section 2 ("Names show in title case and dates in medium format"), shared so the
 * panel's lists and CSV exports agree.
 */

/**
 * 'uttar pradesh' -> 'Uttar Pradesh', 'north-east' -> 'North-East'. Words typed with capitals inside them are
 * kept as typed ('NSDL', 'PayU'); a name typed all in capitals ('JAMMU & KASHMIR') is cased.
 */
export function titleCase(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  const shouting = text === text.toUpperCase();
  return text.replace(/[\p{L}\p{N}]+/gu, (word) => {
    const typedCapitals = word.slice(1) !== word.slice(1).toLowerCase();
    if (typedCapitals && !shouting) return word;
    return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
  });
}

const MEDIUM_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** Medium date and short time ('Nov 21, 2026, 3:05 PM'), for `formatDate(value, DATE_TIME)`. */
export const DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** An ISO date (or Date) in medium format, e.g. 'Nov 21, 2026', in the viewer's time zone; '' when invalid. */
export function formatDate(value: unknown, format: Intl.DateTimeFormat = MEDIUM_DATE): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? '' : format.format(date);
}

const RUPEES = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Decimal rupees (the wire's money) as '₹1,23,456.50'; '' when not a number. */
export function formatRupees(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const amount = Number(value);
  return Number.isFinite(amount) ? RUPEES.format(amount) : '';
}

const COUNT = new Intl.NumberFormat('en-IN');

/** A count with Indian digit grouping, as the pager and the dashboard write it: 78899 -> '78,899'. */
export const formatCount = (value: number) => COUNT.format(value);
