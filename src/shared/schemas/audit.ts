import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from '../audit';
import { AUDIT_MSG } from '../constants/audit';

// Zod-free (the sign-in page imports them without zod); re-exported so the server's imports stay.
export { AUDIT_MSG } from '../constants/audit';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A day in India's calendar (the business time zone, Asia/Kolkata: UTC+05:30 all year) or an exact time. */
const instant = (edge: 'start' | 'end') =>
  z
    .string()
    .trim()
    .refine((text) => !Number.isNaN(Date.parse(DATE_ONLY.test(text) ? `${text}T00:00:00+05:30` : text)), {
      error: AUDIT_MSG.invalidDate,
    })
    .transform((text) => {
      if (!DATE_ONLY.test(text)) return new Date(text);
      const start = new Date(`${text}T00:00:00+05:30`);
      // A day given as `to` includes the whole day: up to (not including) the next midnight.
      return edge === 'start' ? start : new Date(start.getTime() + 86_400_000 - 1);
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
