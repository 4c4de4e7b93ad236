import { z } from 'zod';

/** `/:id` of update routes. */
export const idParam = z.object({ id: z.uuid({ error: 'Invalid id' }) });

/** An optional uuid filter; an empty query value means "no filter". */
export const optionalUuid = (message: string) =>
  z
    .uuid({ error: message })
    .optional()
    .or(z.literal('').transform(() => undefined));
