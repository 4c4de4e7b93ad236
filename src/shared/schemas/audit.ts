import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from '../audit';
import { AUDIT_MSG } from '../constants/audit';
import { filterDate, filterDay } from '../dates';

// Zod-free (the sign-in page imports them without zod); re-exported so the server's imports stay.
export { AUDIT_MSG } from '../constants/audit';

/** A day in India's calendar or an exact time, by the shared date rule (src/shared/dates.ts). */
const instant = (edge: 'start' | 'end') =>
  z
    .string()
    .trim()
    .transform((text, ctx) => {
      const date = filterDate(text, edge);
      if (date.error !== undefined) {
        ctx.addIssue({ code: 'custom', message: date.error });
        return z.NEVER;
      }
      return date.at;
    });

const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** `GET audit/fetch` filters (besides page and limit). */
export const auditFilterSchema = z.object({
  userId: optional(z.uuid({ error: AUDIT_MSG.invalidUser })),
  entity: optional(z.enum(AUDIT_ENTITIES, { error: AUDIT_MSG.invalidEntity })),
  action: optional(z.enum(AUDIT_ACTIONS, { error: AUDIT_MSG.invalidAction })),
  from: optional(instant('start')),
  to: optional(instant('end')),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

/** A day in India's calendar, YYYY-MM-DD (the ledger lists' From and To), by the shared rule. */
const day = z
  .string({ error: AUDIT_MSG.invalidDay })
  .trim()
  .transform((text, ctx) => {
    const found = filterDay(text);
    if (found.error !== undefined) {
      ctx.addIssue({ code: 'custom', message: found.error });
      return z.NEVER;
    }
    return found.day;
  });

/** The ledger lists' day range (`transactions/fetch`, `wallet/fetch`): both days included. */
export const dayRangeSchema = z.object({ from: optional(day), to: optional(day) });
export type DayRange = z.infer<typeof dayRangeSchema>;
