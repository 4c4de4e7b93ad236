import { z } from 'zod';

/** `/:id` of update routes. */
export const idParam = z.object({ id: z.uuid({ error: 'Invalid id' }) });

/** An optional query filter: absent or empty means "no filter"; anything else must pass `schema`. */
export const optionalFilter = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** An optional uuid filter. */
export const optionalUuid = (message: string) => optionalFilter(z.uuid({ error: message }));
