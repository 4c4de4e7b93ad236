import { createHash } from 'node:crypto';
import { and, asc, desc, not, type SQL, sql } from 'drizzle-orm';
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
 * - `capped`: counted up to COUNT_CAP + 1 rows, then reported as COUNT_CAP with `capped` set (searches and
 *   filters over the big tables);
 * - `{ kept }`: kept by the writes in their own transaction and read for free (the network counters, a wallet's
 *   posting count): a scalar SQL expression giving the number.
 */
export type TotalSource = 'exact' | 'capped' | { kept: SQL };

/** The sort a request asks for: the whitelisted expression (unknown names fall back to the default) and its direction. */
function sortOf(whitelist: SortWhitelist, request: Pick<PageRequest, 'sort' | 'order'>) {
  const order = request.order ?? whitelist.defaultOrder ?? 'DESC';
  const name =
    request.sort && Object.hasOwn(whitelist.columns, request.sort) ? request.sort : whitelist.default;
  return { key: whitelist.columns[name], direction: order === 'ASC' ? asc : desc, name, order };
}

/** ORDER BY for a request: a whitelisted column and the id. */
export function orderBy(whitelist: SortWhitelist, request: Pick<PageRequest, 'sort' | 'order'>): SQL[] {
  const { key, direction } = sortOf(whitelist, request);
  return [direction(key), direction(whitelist.id)];
}

const offsetOf = (page: PageRequest) => page.offset ?? ((page.page ?? 1) - 1) * page.limit;

/** A drizzle select of a list's rows: run as it is, or as a prepared statement under a name. */
export interface RowsQuery<Row> {
  execute(): Promise<Row[]>;
  prepare(name: string): { execute(): Promise<Row[]> };
  toSQL(): { sql: string };
}

export interface ListSpec<Row> {
  /**
   * A fresh select over the listed table and the joins its filters need, selecting `{ id, sortKey }` (see
   * `keyFields`): the page is found through it alone, so an index can serve it without touching the rows.
   */
  keys: (sortKey: SQL.Aliased) => PgSelect;
  /**
   * The list's rows with their joins, for the keys of the page only (deferred join): a select `from(page.keys)`
   * joined to the listed table on `page.id`, ordered by `pageOrder`, with the `total` field among its fields
   * (the total comes back with the rows: one statement, one round trip).
   */
  rows: (page: PageKeys, pageOrder: SQL[], total: SQL.Aliased<number>) => RowsQuery<Row>;
  where: SQL | undefined;
  /**
   * A capped search's `where` as a walk down its sort's index tests it row by row, when its matches are past
   * the cap (the page is then the first rows of the index that match). Given when `where` is written for an
   * index of its own (a trigram LIKE, a digit run), which finds matches in no particular order. Same rows as
   * `where`.
   */
  walkWhere?: SQL;
  page: PageRequest;
  sort: SortWhitelist;
  total: TotalSource;
  /**
   * Its filter is equalities the sort's indexes serve (a type, a parent, a status), or none: a capped total is
   * then counted down the same index beside the page. Otherwise (a search, a path prefix) the matches are read
   * once, up to the cap, and both counted and sorted from there.
   */
  equalities?: boolean;
  /**
   * Runs the page as a prepared statement (parsed once per connection) named `<prepared>_<digest of its text>`:
   * for the hot lists whose best plan does not depend on their values. A name is explicit and the digest keeps
   * one name to one text, as PostgreSQL requires.
   */
  prepared?: string;
}

/** The page: its subquery (`from(page.keys)`) and its id column, qualified, for the join. */
export interface PageKeys {
  keys: SubqueryWithSelection<{ id: SQL.Aliased<string>; sortKey: SQL.Aliased<unknown> }, 'page'>;
  id: SQL;
}

/** The statement name of a prepared list page: its list's name and a digest of its text. */
export const statementName = (list: string, text: string) =>
  `${list.replace(/\W+/g, '_')}_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;

/** Runs a list's rows, prepared under its name when the list is a prepared one. */
function runRows<Row>(query: RowsQuery<Row>, prepared: string | undefined): Promise<Row[]> {
  if (!prepared) return query.execute();
  return query.prepare(statementName(prepared, query.toSQL().sql)).execute();
}

/**
 * The one list helper: a page of rows and the total matching `where`, for every list call (`state/fetch`,
 * `account/fetch`, `transactions/fetch`, ...). The page is found on the keys alone (an index-only path where
 * one exists), the joins run for its rows only, and the total comes in the same statement. Only a page past
 * the last row asks for the total again, on its own.
 */
export async function listPage<Row>(db: Queryable, spec: ListSpec<Row>) {
  const rows = await runRows(spec.rows(...pageParts(db, spec as ListSpec<unknown>)), spec.prepared);
  let n = (rows[0] as { total?: number } | undefined)?.total;
  if (n === undefined) {
    const [row] = await db
      .select({ n: sql<number>`${countOf(spec as ListSpec<unknown>)}`.mapWith(Number) })
      .from(sql`(select 1) as one`);
    n = row?.n ?? 0;
  }
  const capped = spec.total === 'capped' && n > COUNT_CAP;
  return { rows, total: capped ? COUNT_CAP : n, capped };
}

/** The list's total for its filter, as a scalar expression: the kept one, or a count (capped or exact). */
function countOf(spec: ListSpec<unknown>): SQL {
  if (typeof spec.total === 'object') return spec.total.kept;
  const { key } = sortOf(spec.sort, spec.page);
  const matching = spec.keys(sql`${key}`.as('sort_key')).where(spec.where);
  return sql`(select count(*) from (${spec.total === 'capped' ? matching.limit(COUNT_CAP + 1) : matching}) as matching)`;
}

/** What a list's `rows` is given: the page's keys (a subquery), their order and the total's field. */
function pageParts(db: Queryable, spec: ListSpec<unknown>): [PageKeys, SQL[], SQL.Aliased<number>] {
  const { key, direction } = sortOf(spec.sort, spec.page);
  const sortKey = sql`${key}`.as('sort_key');
  const { limit } = spec.page;
  const offset = offsetOf(spec.page);
  const keyFilter = spec.where === undefined || spec.equalities === true;
  // A capped search or path prefix reads its matches once, up to the cap (below).
  const readsMatchesOnce = spec.total === 'capped' && (spec.walkWhere !== undefined || !keyFilter);
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
    // end, walking (total - offset) keys instead of offset, so the last page costs as little as the first. Both
    // branches are in the statement; a one-time filter on the total runs only the one that applies.
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
      // Tells the planner the page is `limit` rows (it cannot see through the far end's computed LIMIT), so the
      // joins stay nested loops over the page.
      .limit(limit)
      .as('page') as unknown as PageKeys['keys'];
  } else if (readsMatchesOnce) {
    // A capped search reads its matches once, up to the cap, and counts them; when they are fewer than the cap
    // its page is sorted from them, and only past the cap is the page read through the sort's index, tested row
    // by row (walkWhere). A search's index finds its matches in no order, so this reads them once, not twice.
    const cap = sql.raw(String(COUNT_CAP));
    const matchCount = sql`(select n from counted)`;
    const fromMatching = sql`select id, sort_key from matching where ${matchCount} <= ${cap}
      order by ${direction(sql`sort_key`)}, ${direction(sql`id`)} limit ${limit} offset ${offset}`;
    const fromIndex = fromStart(and(spec.walkWhere ?? spec.where, sql`${matchCount} > ${cap}`));
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
        sql`(with matching as (${matching}), counted as (select count(*) as n from matching)
          select m.id, m.sort_key, ${matchCount} as list_n
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
  // A page that reads its matches once carries its count; the others' total is a scalar subquery beside the rows.
  const total = sql<number>`${readsMatchesOnce ? sql`"page"."list_n"` : countOf(spec)}`
    .mapWith(Number)
    .as('list_total');
  return [page, pageOrder, total];
}

/** The key fields a list's `keys` select takes: its id and the page's sort key. */
export const keyFields = (id: AnyPgColumn, sortKey: SQL.Aliased) => ({
  id: sql<string>`${id}`.as('id'),
  sortKey,
});
