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

/**
 * The panel's languages as the formats read them: `en` (the seed's texts) and `hi`. Another tag formats as English.
 * Dates in English are Angular's `medium` form, which the seed names ('Nov 26, 2026, 7:43:05 AM'; en-US's medium
 * date and time; a day alone en-US's medium date); numbers and rupees in English use Indian digit grouping (en-IN: '₹1,23,456.50'). Hindi uses
 * hi-IN for both ('26 नव॰ 2026', '₹1,23,456.50'), with a 24-hour clock: hi-IN's 12-hour clock writes 'am'/'pm' in
 * Latin letters.
 */
export type FormatLocale = 'en' | 'hi';

const DATE_LOCALE: Record<FormatLocale, string> = { en: 'en-US', hi: 'hi-IN' };
const NUMBER_LOCALE: Record<FormatLocale, string> = { en: 'en-IN', hi: 'hi-IN' };
const known = (locale: string | undefined): FormatLocale => (locale === 'hi' ? 'hi' : 'en');

/** One Intl formatter per language and kind, made once (Intl formatters are slow to make, quick to use). */
const cached = <F>(make: (locale: FormatLocale) => F) => {
  const made = new Map<FormatLocale, F>();
  return (locale: string | undefined): F => {
    const key = known(locale);
    let format = made.get(key);
    if (!format) {
      format = make(key);
      made.set(key, format);
    }
    return format;
  };
};

/** The date formatters of one time zone (undefined: the viewer's), per language and kind, made once. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: string | undefined, time: boolean | 'dayMonth', timeZone: string | undefined) {
  const language = known(locale);
  const key = `${language} ${time} ${timeZone ?? ''}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(
      DATE_LOCALE[language],
      time === 'dayMonth'
        ? { day: 'numeric', month: 'short', timeZone }
        : {
            dateStyle: 'medium',
            ...(time ? { timeStyle: 'medium' } : {}),
            ...(time && language === 'hi' ? { hourCycle: 'h23' as const } : {}),
            timeZone,
          },
    );
    dateFormats.set(key, format);
  }
  return format;
}

export interface DateFormatOptions {
  /** The panel's language (react-admin's locale); English when not given (CSV exports, server texts). */
  locale?: string;
  /** Only the day of a moment ('Nov 26, 2026'): where a moment stands for its day. A calendar day always is one. */
  day?: boolean;
  /** Only the day and month ('Nov 26'; Hindi '26 नव॰'): where the year goes without saying (a chart's axis). */
  dayMonth?: boolean;
  /**
   * The IANA time zone to read a moment in; the viewer's when not given (the panel). The server's documents give
   * India's (Asia/Kolkata), whatever the server's own. A calendar day is the day written, in any zone.
   */
  timeZone?: string;
}

/** A calendar day on the wire (a TDS quarter's first day, a challan's date): YYYY-MM-DD, no time and no zone. */
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The one date format of the panel (its lists, pages and CSV exports, exports in English) and of the server's
 * documents (receipts, statements, TDS certificates: India's time), the seed's medium format. A moment (an ISO time
 * or a Date) is its date and time with seconds: 'Nov 26, 2026, 7:43:05 AM', in Hindi '26 नव॰ 2026, 19:43:05' (a
 * 24-hour clock). A calendar day (YYYY-MM-DD: a period's ends, a last credit) is the medium date of that very day,
 * 'Oct 1, 2026' ('1 अक्टू॰ 2026'), as is a moment with `day`; `dayMonth` leaves out the year. '' when missing or
 * invalid.
 */
export function formatDate(
  value: unknown,
  { locale, day = false, dayMonth = false, timeZone }: DateFormatOptions = {},
): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string' && CALENDAR_DAY.test(value)) {
    // Read at midnight UTC and written in UTC: the day as written, whatever the viewer's zone.
    const midnight = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(midnight.getTime()) || midnight.toISOString().slice(0, 10) !== value) return '';
    return dateFormat(locale, dayMonth ? 'dayMonth' : false, 'UTC').format(midnight);
  }
  const date = value instanceof Date ? value : new Date(String(value));
  if (Number.isNaN(date.getTime())) return '';
  return dateFormat(locale, dayMonth ? 'dayMonth' : !day, timeZone).format(date);
}

/** A month on the wire (YYYY-MM: a statement's month) as people name it: 'January 2031', in Hindi 'जनवरी 2031'. */
const monthFormat = cached(
  (locale) =>
    new Intl.DateTimeFormat(DATE_LOCALE[locale], { month: 'long', year: 'numeric', timeZone: 'UTC' }),
);

/** 'YYYY-MM' as 'January 2031' ('जनवरी 2031' in Hindi); '' when it is not a month. */
export function formatMonth(value: unknown, locale?: string): string {
  const month = /^(\d{4})-(\d{2})$/.exec(String(value ?? ''));
  if (!month || Number(month[2]) < 1 || Number(month[2]) > 12) return '';
  return monthFormat(locale).format(new Date(Date.UTC(Number(month[1]), Number(month[2]) - 1, 1)));
}

const rupees = cached(
  (locale) =>
    new Intl.NumberFormat(NUMBER_LOCALE[locale], {
      style: 'currency',
      currency: 'INR',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }),
);

/** A decimal number as the wire writes money ('1250.5', '-30'): formatted as it is, never through a float. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * Decimal rupees (the wire's money, or a number) as '₹1,23,456.50' with Indian digit grouping; '' when not a
 * number. A decimal string is formatted exactly (Intl formats the digits as written), so an amount beyond 2^53
 * paise keeps its last digit.
 */
export function formatRupees(value: unknown, locale?: string): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string' && DECIMAL.test(value.trim()))
    return rupees(locale).format(value.trim() as `${number}`);
  const amount = typeof value === 'bigint' ? value : Number(value);
  return typeof amount === 'bigint' || Number.isFinite(amount) ? rupees(locale).format(amount) : '';
}

const count = cached((locale) => new Intl.NumberFormat(NUMBER_LOCALE[locale]));

/** A count with Indian digit grouping, as the pager and the dashboard write it: 78899 -> '78,899'. */
export const formatCount = (value: number | bigint, locale?: string) => count(locale).format(value);
