// The dashboard's charts (issue 55): the texts both sides use, without zod (schemas/reports.ts re-exports them).

/** The most days `report/trends` answers: the panel asks 60 (the last 30 days and the 30 before them). */
export const MAX_TREND_DAYS = 90;

export const REPORT_MSG = {
  days: `days must be a whole number from 1 to ${MAX_TREND_DAYS}`,
} as const;
