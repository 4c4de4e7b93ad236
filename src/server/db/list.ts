import { asc, count, desc, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect, SubqueryWithSelection } from 'drizzle-orm/pg-core';
import type { Queryable } from './open';

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

/** Past this many matching rows a total is not counted further: the answer says "at least CAP" (capped). */
export const COUNT_CAP = 1000;

/**
 * How a list's total is found:
 * - `exact`: counted (small tables: locations, catalogue, applications);
 * - `capped`: counted up to COUNT_CAP + 1 rows through the list's own index, then reported as COUNT_CAP with
 *   `capped` set (searches and filters over the big tables);
 * - `{ known }`: kept elsewhere and read for free (the network counters, a wallet's posting count).
 */
export type TotalSource = 'exact' | 'capped' | { known: () => Promise<number> };

/** The sort a request asks for: the whitelisted expression (unknown names fall back to the default) and its direction. */
function sortOf(whitelist: SortWhitelist, request: Pick<PageRequest, 'sort' | 'order'>) {
  const direction = (request.order ?? whitelist.defaultOrder ?? 'DESC') === 'ASC' ? asc : desc;
  const key =
    request.sort && Object.hasOwn(whitelist.columns, request.sort)
      ? whitelist.columns[request.sort]
      : whitelist.columns[whitelist.default];
  return { key, direction };
}

/** ORDER BY for a request: a whitelisted column and the id. */
export function orderBy(whitelist: SortWhitelist, request: Pick<PageRequest, 'sort' | 'order'>): SQL[] {
  const { key, direction } = sortOf(whitelist, request);
  return [direction(key), direction(whitelist.id)];
}

const offsetOf = (page: PageRequest) => page.offset ?? ((page.page ?? 1) - 1) * page.limit;

export interface ListSpec<Row> {
  /**
   * A fresh select over the listed table and the joins its filters need, selecting `{ id, sortKey }` (see
   * `keyFields`): the page is found through it alone, so an index can serve it without touching the rows.
   */
  keys: (sortKey: SQL.Aliased) => PgSelect;
  /**
   * The list's rows with their joins, for the ten keys of the page only: a select `from(page.keys)` joined to
   * the listed table on `page.id`, ordered by `pageOrder`.
   */
  rows: (page: PageKeys, pageOrder: SQL[]) => PromiseLike<Row[]>;
  where: SQL | undefined;
  page: PageRequest;
  sort: SortWhitelist;
  total: TotalSource;
}

/** The page: its subquery (`from(page.keys)`) and its id column, qualified, for the join. */
export interface PageKeys {
  keys: SubqueryWithSelection<{ id: SQL.Aliased<string>; sortKey: SQL.Aliased<unknown> }, 'page'>;
  id: SQL;
}

/**
 * The one list helper: a page of rows and the total matching `where`, for every list call (`state/fetch`,
 * `account/fetch`, `transactions/fetch`, ...). The page is found on the keys alone (an index-only path where
 * one exists) and the joins run for its rows only; the total comes from the source the list names. Rows and
 * total are asked for at once (on PostgreSQL on two connections; the embedded database has one connection,
 * which must stay one: its single session would mix the statements of two).
 */
export async function listPage<Row>(db: Queryable, spec: ListSpec<Row>) {
  const { key, direction } = sortOf(spec.sort, spec.page);
  const sortKey = sql`${key}`.as('sort_key');
  const keys = spec
    .keys(sortKey)
    .where(spec.where)
    .orderBy(direction(key), direction(spec.sort.id))
    .limit(spec.page.limit)
    .offset(offsetOf(spec.page))
    .as('page') as unknown as PageKeys['keys'];
  // The page's columns, qualified: the joined tables have columns of the same names.
  const page: PageKeys = { keys, id: sql`"page"."id"` };
  const pageOrder = [direction(sql`"page"."sort_key"`), direction(sql`"page"."id"`)];
  const totalOf = async (): Promise<{ total: number; capped: boolean }> => {
    if (typeof spec.total === 'object') return { total: await spec.total.known(), capped: false };
    const matching = spec.keys(sortKey).where(spec.where);
    const counted = spec.total === 'capped' ? matching.limit(COUNT_CAP + 1) : matching;
    const [row] = await db.select({ n: count() }).from(counted.as('matching'));
    const n = Number(row?.n ?? 0);
    return n > COUNT_CAP && spec.total === 'capped'
      ? { total: COUNT_CAP, capped: true }
      : { total: n, capped: false };
  };
  const [rows, total] = await Promise.all([spec.rows(page, pageOrder), totalOf()]);
  return { rows, ...total };
}

/** The key fields a list's `keys` select takes: its id and the page's sort key. */
export const keyFields = (id: AnyPgColumn, sortKey: SQL.Aliased) => ({
  id: sql<string>`${id}`.as('id'),
  sortKey,
});
