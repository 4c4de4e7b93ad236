/**
 * Display formats of seed section 2 ("Names show in title case and dates in medium format"), shared so the
 * panel's lists and CSV exports agree.
 */

/** 'uttar pradesh' -> 'Uttar Pradesh', 'JAMMU & KASHMIR' -> 'Jammu & Kashmir', 'north-east' -> 'North-East'. */
export function titleCase(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value).replace(
    /[\p{L}\p{N}]+/gu,
    (word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(),
  );
}

const MEDIUM_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** An ISO date (or Date) in medium format, e.g. 'Nov 21, 2026', in the viewer's time zone; '' when invalid. */
export function formatDate(value: unknown, format: Intl.DateTimeFormat = MEDIUM_DATE): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? '' : format.format(date);
}
