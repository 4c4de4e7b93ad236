import { z } from 'zod';
import { MAX_PAGE_SIZE, PAGE_SIZE } from '../../shared/rules';

/** Wire contract: `page` 1-based, `limit` 1..100 (default 10), `searchText` optional. */
export const pagingQuery = z.object({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int()
    .min(1, { error: 'page must be at least 1' })
    .default(1),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int()
    .min(1, { error: 'limit must be at least 1' })
    .max(MAX_PAGE_SIZE, { error: `limit must be at most ${MAX_PAGE_SIZE}` })
    .default(PAGE_SIZE),
  searchText: z.string().trim().max(100).optional(),
});
export type Paging = z.infer<typeof pagingQuery>;

export const offsetOf = (p: Paging) => (p.page - 1) * p.limit;

/** Optional `sort` + `order` on whitelisted columns (wire contract extension). */
export function sortQuery<K extends string>(columns: readonly [K, ...K[]]) {
  return z.object({
    sort: z.enum(columns, { error: `sort must be one of ${columns.join(', ')}` }).optional(),
    order: z
      .enum(['ASC', 'DESC', 'asc', 'desc'], { error: 'order must be ASC or DESC' })
      .optional()
      .transform((o) => (o ? (o.toUpperCase() as 'ASC' | 'DESC') : undefined)),
  });
}

/** A list answer's `totalCountsCapped: true` when its total stopped at the cap (db/list.ts), else nothing. */
export const cappedMark = (capped: boolean) => (capped ? { totalCountsCapped: true as const } : {});
