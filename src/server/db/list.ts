import { asc, count, desc, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';

/** A page request as every list takes it: 1-based page, page size, optional whitelisted sort. */
export interface PageRequest {
  /** 1-based page; or `offset` (rows to skip) directly. */
  page?: number;
  offset?: number;
  limit: number;
  sort?: string;
  order?: 'ASC' | 'DESC';
}

/** Sortable columns by their wire name; `id` breaks ties so pages never overlap or skip a row. */
export interface SortWhitelist {
  columns: Record<string, AnyPgColumn | SQL>;
  /** The column used when the request names none (newest first by default). */
  default: string;
  defaultOrder?: 'ASC' | 'DESC';
  id: AnyPgColumn;
}

/** ORDER BY for a request: a whitelisted column (unknown names fall back to the default) and the id. */
export function orderBy(whitelist: SortWhitelist, request: Pick<PageRequest, 'sort' | 'order'>): SQL[] {
  const dir = (request.order ?? whitelist.defaultOrder ?? 'DESC') === 'ASC' ? asc : desc;
  const column =
    request.sort && Object.hasOwn(whitelist.columns, request.sort)
      ? whitelist.columns[request.sort]
      : whitelist.columns[whitelist.default];
  return [dir(column), dir(whitelist.id)];
}

/**
 * The one list helper: a page of rows and the total matching `where`, for every list call (`state/fetch`, `account/fetch`, ...). `rows` is the
 * list's select with its joins (dynamic), `counted` the select of `count()` over the tables `where` needs.
 * Both run at once; how a page is found and how the total is counted (keyset paging, a capped count, one
 * round trip) changes here and nowhere else.
 */
export async function listPage<Q extends PgSelect>(
  rows: Q,
  counted: PgSelect,
  where: SQL | undefined,
  page: PageRequest,
  /** The whitelist the request's sort picks from, or one fixed ORDER BY (ending with a unique tie-break). */
  sort: SortWhitelist | SQL[],
): Promise<{ rows: Awaited<Q>; total: number }> {
  const [found, totals] = await Promise.all([
    rows
      .where(where)
      .orderBy(...(Array.isArray(sort) ? sort : orderBy(sort, page)))
      .limit(page.limit)
      .offset(page.offset ?? ((page.page ?? 1) - 1) * page.limit),
    counted.where(where),
  ]);
  return { rows: found as Awaited<Q>, total: Number((totals as { n: number }[])[0]?.n ?? 0) };
}

/** The counting select a list passes to listPage (add the joins its filters need). */
export const countOf = () => ({ n: count() });
