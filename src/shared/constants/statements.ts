// Monthly statements (issue 43): the texts both sides use, without zod (schemas/statements.ts re-exports them).

export const STATEMENT_MSG = {
  userRequired: 'userId is required',
  invalidUser: 'userId must be a user id',
  month: 'month must be a month such as 2026-11',
  format: 'format must be json, csv or pdf',
  userNotFound: 'User not found',
  noStatement: 'Only master distributors, distributors and retailers have statements',
} as const;

export const STATEMENT_FORMATS = ['json', 'csv', 'pdf'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

/** A month as the statements name it: YYYY-MM, in the business time zone's calendar (India's). */
export const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The month a moment falls in, in India's calendar (UTC+05:30 all year): `2026-11`. */
export const monthOf = (at: Date) => new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 7);
