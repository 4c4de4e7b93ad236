import { and, asc, desc, not, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect, SubqueryWithSelection } from 'drizzle-orm/pg-core';
import type { Queryable } from './open';
import { PLAN_ONCE } from './plan-cache';

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
 * - `{ kept }`: kept elsewhere and read for free (the network counters, a wallet's posting count): a scalar
 *   SQL expression giving the number.
 */
export type TotalSource = 'exact' | 'capped' | { kept: SQL };

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
   * the listed table on `page.id`, ordered by `pageOrder`, with the `total` field among its fields (the total
   * comes back with the rows: one statement, one round trip).
   */
  rows: (page: PageKeys, pageOrder: SQL[], total: SQL.Aliased<number>) => PromiseLike<Row[]>;
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
 * one exists), the joins run for its rows only, and the total rides along as a scalar subquery: one statement
 * (the embedded database serves one statement at a time, so each round trip counts). Only a page past the
 * last row asks for the total again, on its own.
 */
export async function listPage<Row>(db: Queryable, spec: ListSpec<Row>) {
  const { key, direction } = sortOf(spec.sort, spec.page);
  const sortKey = sql`${key}`.as('sort_key');
  const offset = offsetOf(spec.page);
  const { limit } = spec.page;
  const fromStart = (where: SQL | undefined) =>
    spec
      .keys(sortKey)
      .where(where)
      .orderBy(direction(key), direction(spec.sort.id))
      .limit(limit)
      .offset(offset);
  let keys: PageKeys['keys'];
  if (typeof spec.total === 'object' && offset > 0) {
    // A kept total tells which end of the index a page is nearer: a page past the middle is read from the far
    // end, walking (total - offset) keys instead of offset (the last of 7,900 pages costs as little as the
    // first). Both branches are planned; a one-time filter on the total runs only the one that applies.
    const n = sql`(${spec.total.kept})`;
    const reverse = direction === asc ? desc : asc;
    const nearStart = sql`${n} >= ${2 * offset + limit}`;
    const fromEnd = sql`${spec
      .keys(sortKey)
      .where(and(spec.where, not(nearStart)))
      .orderBy(reverse(key), reverse(spec.sort.id))} limit greatest(0, least(${limit}, ${n} - ${offset}))
      offset greatest(0, ${n} - ${offset} - ${limit})`;
    keys = db
      .select({ id: sql<string>`k.id`.as('id'), sortKey: sql`k.sort_key`.as('sort_key') })
      .from(sql`((${fromStart(and(spec.where, nearStart))}) union all (${fromEnd})) as k`)
      // Tells the planner the page is `limit` rows (it cannot see through the far end's computed LIMIT), so
      // the joins stay nested loops over the page instead of hashing the whole table.
      .limit(limit)
      .as('page') as unknown as PageKeys['keys'];
  } else if (spec.total === 'capped') {
    // A capped list (a search, a filter over a big table) reads its matches once, up to the cap, and counts
    // them; when they are fewer than the cap (a typeahead's few hundred) its page is sorted from them, and only
    // past the cap is the page read again through the list's index. A search's index finds its matches in any
    // order, so before, the same matches were read twice: once to count them, once to sort them.
    const matchCount = sql`(select count(*) from matching)`;
    const fromMatching = sql`select id, sort_key from matching where ${matchCount} <= ${COUNT_CAP}
      order by ${direction(sql`sort_key`)}, ${direction(sql`id`)} limit ${limit} offset ${offset}`;
    const fromIndex = fromStart(and(spec.where, sql`${matchCount} > ${COUNT_CAP}`));
    const matching = spec
      .keys(sortKey)
      .where(spec.where)
      .limit(COUNT_CAP + 1);
    keys = db
      .select({
        id: sql<string>`k.id`.as('id'),
        sortKey: sql`k.sort_key`.as('sort_key'),
        total: sql`k.list_n`.as('list_n'),
      })
      .from(
        sql`(with matching as (${matching}) select m.id, m.sort_key, ${matchCount} as list_n
          from ((${fromMatching}) union all (${fromIndex})) as m) as k`,
      )
      .limit(limit)
      .as('page') as unknown as PageKeys['keys'];
  } else {
    keys = fromStart(spec.where).as('page') as unknown as PageKeys['keys'];
  }
  // The page's columns, qualified: the joined tables have columns of the same names.
  const page: PageKeys = { keys, id: sql`"page"."id"` };
  const pageOrder = [direction(sql`"page"."sort_key"`), direction(sql`"page"."id"`)];
  const counted =
    typeof spec.total === 'object'
      ? spec.total.kept
      : sql`(select count(*) from (${
          spec.total === 'capped'
            ? spec
                .keys(sortKey)
                .where(spec.where)
                .limit(COUNT_CAP + 1)
            : spec.keys(sortKey).where(spec.where)
        }) as matching)`;
  // A list with a kept total (one type or scope, one sort) or no filter at all has one best plan whatever page
  // it asks for: it is planned once per connection. A search or a filter is planned with its values each time.
  const planOnce =
    typeof spec.total === 'object' || spec.where === undefined ? sql.raw(`${PLAN_ONCE} `) : sql``;
  // A capped page carries its count (above); the others' total is a scalar subquery beside the rows.
  const total = sql<number>`${planOnce}${spec.total === 'capped' ? sql`"page"."list_n"` : counted}`
    .mapWith(Number)
    .as('list_total');
  let rows = await spec.rows(page, pageOrder, total);
  let n = (rows[0] as { total?: number } | undefined)?.total;
  if (n === undefined) {
    const [row] = await db
      .select({ n: sql<number>`${counted}`.mapWith(Number) })
      .from(sql`(select 1) as one`);
    n = row?.n ?? 0;
    rows = [];
  }
  const capped = spec.total === 'capped' && n > COUNT_CAP;
  return { rows, total: capped ? COUNT_CAP : n, capped };
}

/** The key fields a list's `keys` select takes: its id and the page's sort key. */
export const keyFields = (id: AnyPgColumn, sortKey: SQL.Aliased) => ({
  id: sql<string>`${id}`.as('id'),
  sortKey,
});
