import { AUDIT_MSG } from './constants/audit';
import { FILTER_YEARS } from './rules';

/**
 * The date rule of the date filters (the audit trail's From and To), read by the server's query schema and by the
 * panel's filter inputs, so both refuse the same texts with the same message. Zod-free: the panel's inputs use it
 * as a plain validator.
 */

const DAY_MS = 86_400_000;
/** The business's time zone: the ledger's days and months, the dashboard's "today", the tax's quarters follow it. */
export const BUSINESS_TIME_ZONE = 'Asia/Kolkata';
/** India's calendar (the business time zone, Asia/Kolkata: UTC+05:30 all year, no daylight saving). */
const INDIA = '+05:30';
/** YYYY-MM-DD, the year also in ISO 8601's expanded form (+275760, -000001) so such a date is named out of range. */
const DATE_ONLY = /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

export type FilterDate = { at: Date; error?: undefined } | { at?: undefined; error: string };

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * What a filter date means: a day in India's calendar (its first instant as `start`, its last millisecond as `end`,
 * so a day given as To includes the whole day) or an exact ISO 8601 time. Refused, with the message to show: text
 * that is neither, a year outside FILTER_YEARS, a day or time the calendar does not have (2026-02-30, 24:00).
 */
export function filterDate(text: string, edge: 'start' | 'end'): FilterDate {
  const dateOnly = DATE_ONLY.exec(text);
  const match = dateOnly ?? DATE_TIME.exec(text);
  if (!match) return { error: AUDIT_MSG.invalidDate };
  const [year, month, day, hour = 0, minute = 0, second = 0, zoneHours = 0, zoneMinutes = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part)));
  if (year === undefined || month === undefined || day === undefined) return { error: AUDIT_MSG.invalidDate };
  if (year < FILTER_YEARS.first || year > FILTER_YEARS.last) return { error: AUDIT_MSG.dateOutOfRange };
  const real =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    zoneHours <= 23 &&
    zoneMinutes <= 59;
  if (!real) return { error: AUDIT_MSG.impossibleDate };
  if (!dateOnly) return { at: new Date(text) };
  const start = new Date(`${text}T00:00:00${INDIA}`);
  return { at: edge === 'start' ? start : new Date(start.getTime() + DAY_MS - 1) };
}

/** The message when both dates are given and From is later than To (the whole To day counts), else undefined. */
export function dateOrderError(from: unknown, to: unknown): string | undefined {
  if (typeof from !== 'string' || typeof to !== 'string' || from === '' || to === '') return undefined;
  const start = filterDate(from, 'start').at;
  const end = filterDate(to, 'end').at;
  return start && end && start > end ? AUDIT_MSG.fromAfterTo : undefined;
}

/**
 * A day filter (the ledger lists' From and To): a day in India's calendar, YYYY-MM-DD only, since the lists' totals
 * are kept per day. The day as given, or the message to show.
 */
export function filterDay(
  text: string,
): { day: string; error?: undefined } | { day?: undefined; error: string } {
  if (!DATE_ONLY.exec(text) || text.length !== 10) return { error: AUDIT_MSG.invalidDay };
  const date = filterDate(text, 'start');
  return date.error !== undefined ? { error: date.error } : { day: text };
}

/** The message when both days are given and From is later than To, else undefined. */
export const dayOrderError = (from: unknown, to: unknown): string | undefined =>
  typeof from === 'string' && typeof to === 'string' && from !== '' && to !== '' && from > to
    ? AUDIT_MSG.fromAfterTo
    : undefined;
