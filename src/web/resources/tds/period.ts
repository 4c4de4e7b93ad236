import { TDS_QUARTERS, type TdsQuarter } from '../../../shared/constants/tds';

/**
 * India's financial year (1 April to 31 March) and its quarters (Q1 April to June ... Q4 January to March), as the
 * server names them: `2026-27`, `Q3`. India's calendar: UTC+05:30 all year.
 */

/** India's calendar day of a moment, YYYY-MM-DD. */
export const indiaDay = (at: Date = new Date()) =>
  new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 10);

/** `2026-27` for the year starting 1 April 2026. */
export const fyLabel = (startYear: number) =>
  `${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}`;

/** The financial year and quarter a day (YYYY-MM-DD) falls in. */
export function periodOfDay(day: string): { fy: string; quarter: TdsQuarter } {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  const startYear = month >= 4 ? year : year - 1;
  return { fy: fyLabel(startYear), quarter: TDS_QUARTERS[Math.floor(((month + 8) % 12) / 3)] };
}

/** The financial years to pick from: this one and the `count - 1` before it, newest first. */
export function recentYears(today: string, count = 6): string[] {
  const start = Number(periodOfDay(today).fy.slice(0, 4));
  return Array.from({ length: count }, (_, i) => fyLabel(start - i));
}
