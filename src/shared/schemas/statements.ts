import { z } from 'zod';
import { MONTH_PATTERN, STATEMENT_FORMATS, STATEMENT_MSG } from '../constants/statements';
import { FILTER_YEARS } from '../rules';
import { isoDay, isoTime } from './dates';
import { documentLanguageField } from './documents';
import { idField } from './locations';

export { MONTH_PATTERN, monthOf, STATEMENT_FORMATS, STATEMENT_MSG } from '../constants/statements';

export const monthField = z
  .string({ error: STATEMENT_MSG.month })
  .trim()
  .refine(
    (text) => {
      const match = MONTH_PATTERN.exec(text);
      const year = Number(match?.[1]);
      return Boolean(match) && year >= FILTER_YEARS.first && year <= FILTER_YEARS.last;
    },
    { error: STATEMENT_MSG.month },
  );

/** `GET statements/fetch?userId&month=YYYY-MM[&format=json|csv|pdf][&lang=en|hi]`. */
export const statementQuerySchema = z.object({
  userId: idField(STATEMENT_MSG.userRequired, STATEMENT_MSG.invalidUser),
  month: monthField,
  format: z.enum(STATEMENT_FORMATS, { error: STATEMENT_MSG.format }).default('json'),
  /** The PDF's language (the JSON and the CSV are the same in both). */
  lang: documentLanguageField,
});
export type StatementQuery = z.infer<typeof statementQuerySchema>;

/** Balances (rupees) at one moment: available and clearing. */
export const statementBalancesSchema = z.strictObject({ balance: z.number(), clearingBalance: z.number() });

/**
 * One line of a statement: exactly one posting of the user's wallet. `amount` is positive (rupees), its sign said
 * by `transactionType` on the balance `balanceType`; `tax` is the TDS of a TDS line (withheld > 0, given back < 0),
 * else null; `balance` and `clearingBalance` are the wallet's balances right after it.
 */
export const statementLineSchema = z.strictObject({
  _id: z.string(),
  /** ISO time, and the day and time in India's calendar (YYYY-MM-DD, HH:MM:SS). */
  createdAt: isoTime,
  date: isoDay,
  time: z.string(),
  kind: z.enum(['COMMISSION', 'SETTLEMENT', 'REVERSAL', 'PAYOUT', 'TDS', 'ADJUSTMENT']),
  transactionType: z.enum(['CREDIT', 'DEBIT']),
  balanceType: z.enum(['CLEARING', 'AVAILABLE']),
  /** A sale's UTM code, or a payout's (adjustment's) reference. */
  reference: z.string().nullable(),
  boughtProductId: z.string().nullable(),
  product: z.string().nullable(),
  customer: z.strictObject({ name: z.string(), mobile: z.string().nullable() }).nullable(),
  amount: z.number(),
  tax: z.number().nullable(),
  balance: z.number(),
  clearingBalance: z.number(),
});
export type StatementLine = z.infer<typeof statementLineSchema>;

export const statementSchema = z.strictObject({
  user: z.strictObject({ _id: z.string(), name: z.string(), type: z.number() }),
  month: z.string(),
  /** India's first and last day of the month. */
  from: isoDay,
  to: isoDay,
  opening: statementBalancesSchema,
  closing: statementBalancesSchema,
  lines: z.array(statementLineSchema),
});
export type Statement = z.infer<typeof statementSchema>;
