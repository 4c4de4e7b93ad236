import { createHash } from 'node:crypto';
import { asc, desc, type SQL, sql } from 'drizzle-orm';
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
   * up to the cap and both counted and sorted from there; past the cap the page walks the sort's index.
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

/** Runs a list's statement, prepared under its name when the list is a prepared one. */
function run<Row>(query: RowsQuery<Row>, prepared: string | undefined): Promise<Row[]> {
  if (!prepared) return query.execute();
  return query.prepare(statementName(prepared, query.toSQL().sql)).execute();
}

/**
 * The one list helper: a page of rows and the total matching `where`, for every list call (`state/fetch`,
 * `account/fetch`, `transactions/fetch`, ...). The page is found on the keys alone (an index-only path where
 * one exists), the joins run for its rows only, and the total usually comes in the same statement. Each
 * statement has one plan; where two plans serve one list, the list asks the second statement only when the first
 * says so (a kept total's page past the middle, a capped search past the cap). Only a page past the last row asks
 * for the total on its own.
 */
export async function listPage<Row>(db: Queryable, spec: ListSpec<Row>) {
  const list = spec as ListSpec<unknown>;
  const { key, direction } = sortOf(list.sort, list.page);
  const sortKey = sql`${key}`.as('sort_key');
  const { limit } = list.page;
  const offset = offsetOf(list.page);
  /** The list's rows for the page `keys`, with `total` beside them. */
  const rowsOf = (keys: PageKeys['keys'], total: SQL) =>
    run(
      spec.rows(
        // The page's columns, qualified: the joined tables have columns of the same names.
        { keys, id: sql`"page"."id"` },
        [direction(sql`"page"."sort_key"`), direction(sql`"page"."id"`)],
        sql<number>`${total}`.mapWith(Number).as('list_total'),
      ),
      spec.prepared,
    );
  /** The page's keys walking the sort's index from its start, filtered by `where`. */
  const fromStart = (where: SQL | undefined) =>
    list
      .keys(sortKey)
      .where(where)
      .orderBy(direction(key), direction(list.sort.id))
      .limit(limit)
      .offset(offset)
      .as('page') as unknown as PageKeys['keys'];
  const answer = (rows: Row[], n: number) => {
    const capped = list.total === 'capped' && n > COUNT_CAP;
    return { rows, total: capped ? COUNT_CAP : n, capped };
  };
  const totalOf = (rows: Row[]) => (rows[0] as { total?: number } | undefined)?.total;

  if (typeof list.total === 'object' && offset > 0) {
    // A kept total tells which end of the index a page is nearer: a page past the middle is read from the far
    // end, walking (total - offset) keys instead of offset, so the last page costs as little as the first.
    const n = await countAlone(db, list);
    if (offset >= n) return answer([], n);
    if (n >= 2 * offset + limit) {
      const rows = await rowsOf(fromStart(list.where), list.total.kept);
      return answer(rows, totalOf(rows) ?? n);
    }
    const reverse = direction === asc ? desc : asc;
    const fromEnd = list
      .keys(sortKey)
      .where(list.where)
      .orderBy(reverse(key), reverse(list.sort.id))
      .limit(Math.min(limit, n - offset))
      .offset(Math.max(0, n - offset - limit))
      .as('page') as unknown as PageKeys['keys'];
    const rows = await rowsOf(fromEnd, list.total.kept);
    return answer(rows, totalOf(rows) ?? n);
  }

  const keyFilter = list.where === undefined || list.equalities === true;
  if (list.total === 'capped' && (list.walkWhere !== undefined || !keyFilter)) {
    // A capped search or path prefix: its index finds matches in no order, so the page is sorted from the first
    // COUNT_CAP + 1 matches, which the same statement counts. That is the page while they are at most COUNT_CAP;
    // past the cap the page is read again down the sort's index, tested row by row (walkWhere), and the total is
    // "at least COUNT_CAP".
    const matching = list
      .keys(sortKey)
      .where(list.where)
      .limit(COUNT_CAP + 1);
    const amongMatches = db
      .select({
        id: sql<string>`m.id`.as('id'),
        sortKey: sql`m.sort_key`.as('sort_key'),
        total: sql`m.list_n`.as('list_n'),
      })
      .from(
        sql`(with matching as (${matching})
          select id, sort_key, (select count(*) from matching) as list_n from matching
          order by ${direction(sql`sort_key`)}, ${direction(sql`id`)} limit ${limit} offset ${offset}) as m`,
      )
      .as('page') as unknown as PageKeys['keys'];
    const rows = await rowsOf(amongMatches, sql`"page"."list_n"`);
    const n = totalOf(rows) ?? (await countAlone(db, list));
    if (n <= COUNT_CAP) return answer(rows, n);
    return answer(
      await rowsOf(fromStart(list.walkWhere ?? list.where), sql.raw(String(COUNT_CAP + 1))),
      COUNT_CAP + 1,
    );
  }

  const rows = await rowsOf(fromStart(list.where), countOf(list));
  return answer(rows, totalOf(rows) ?? (await countAlone(db, list)));
}

/** The list's total for its filter, as a scalar expression: the kept one, or a count (capped or exact). */
function countOf(spec: ListSpec<unknown>): SQL {
  if (typeof spec.total === 'object') return spec.total.kept;
  const { key } = sortOf(spec.sort, spec.page);
  const matching = spec.keys(sql`${key}`.as('sort_key')).where(spec.where);
  return sql`(select count(*) from (${spec.total === 'capped' ? matching.limit(COUNT_CAP + 1) : matching}) as matching)`;
}

/** The list's total in a statement of its own. */
async function countAlone(db: Queryable, spec: ListSpec<unknown>): Promise<number> {
  const query = db.select({ n: sql<number>`${countOf(spec)}`.mapWith(Number) }).from(sql`(select 1) as one`);
  const [row] = await run(query, spec.prepared);
  return row?.n ?? 0;
}

/** The key fields a list's `keys` select takes: its id and the page's sort key. */
export const keyFields = (id: AnyPgColumn, sortKey: SQL.Aliased) => ({
  id: sql<string>`${id}`.as('id'),
  sortKey,
});
