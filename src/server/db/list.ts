import { and, asc, desc, fillPlaceholders, is, not, Param, Placeholder, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, PgDialect, type PgSelect, type SubqueryWithSelection } from 'drizzle-orm/pg-core';
import { MAX_PAGE_SIZE, PAGE_SIZE } from '../../shared/rules';
import type { Queryable } from './open';
import { PLAN_ONCE } from './plan-cache';
import { deliverRider, type Rider, type RiderSource, withRider } from './ride';
import { type PreparedSelect, withCompiledRowMapper } from './row-mapper';
import { runStatement } from './statements';

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
 *   `capped` set (searches and filters over the big tables); found past the cap, not counted again for a minute
 *   (knownPastCap);
 * - `{ kept }`: kept elsewhere and read for free (the network counters, a wallet's posting count): a scalar
 *   SQL expression giving the number.
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

/**
 * The values a list's statement runs with, each bound as a placeholder (`bind(value)`), so the statement's text
 * is the same for every caller, page and value of one filter shape and listPage builds it once per shape.
 * Drizzle builds a statement's text anew on every call, a large share of a list call's CPU: keeping it saves
 * that work (docs/performance.md, Prepared statements).
 */
export class Bindings {
  readonly values: Record<string, unknown> = {};
  #next = 0;
  bind(value: unknown): Placeholder {
    const name = `v${this.#next++}`;
    this.values[name] = value;
    return sql.placeholder(name);
  }

  /**
   * A value bound and read through a subquery, so no plan sees it: for a list's own parent or user (a
   * retailer's sales, a master distributor's retailers, a wallet), walked through one index whatever the value,
   * and a search's digits (one key of the digit runs' index). Seen, PostgreSQL planned a parent with fewer rows
   * than the average with its id on every call (on PGlite, planning was most of a retailer's sales page);
   * unseen, both plans cost the same and the kept one serves.
   */
  bindUnseen(value: string, type: 'uuid' | 'text'): SQL {
    return sql`(select ${this.bind(value)}::${sql.raw(type)})`;
  }
}

/** What a list's `rows` gives back: a select listPage can run (and keep) with the bound values. */
export interface RowsQuery<Row> {
  execute(values?: Record<string, unknown>): Promise<Row[]>;
}

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
  rows: (page: PageKeys, pageOrder: SQL[], total: SQL.Aliased<number>) => RowsQuery<Row>;
  where: SQL | undefined;
  /**
   * A capped list's `where` as the walk down its sort's index tests it, row by row, when its matches are past
   * the cap (the page is then the first rows of the index that match). Said apart when `where` is written for
   * an index of its own (a search's trigram LIKE): planning that condition is most of a search's planning, and
   * it would let the planner read every match through that index and sort them, where the walk stops at the
   * page (its matches are at least one row in COUNT_CAP / table size). Same rows as `where`. A list that gives
   * it is a search: its matches are read once, and below the cap its page is sorted from them (buildPage).
   */
  walkWhere?: SQL;
  page: PageRequest;
  sort: SortWhitelist;
  total: TotalSource;
  /**
   * Names the list, so its statement is built once per shape and kept: `keys` and `rows` must then build the
   * same text for the same `where`, `total`, page branch and sort, and every value in `where` and `total` must
   * be bound through `bindings`. A statement still holding an unbound value is never kept (it is built for each
   * call, as a list without a name is).
   */
  statement?: string;
  bindings?: Bindings;
  /**
   * Its filter is equalities an index serves whatever their values (ids, enums `written` into the text, a search
   * of digits as one key of its index), so it may keep its plan like a list with a kept total or no filter:
   * PostgreSQL still plans a call with its values when the plan it keeps would cost more for them. Never for a
   * LIKE search or a path prefix: a plan kept for `LIKE $1` cannot use the prefix's index and reads the whole
   * table. It also decides a capped list's shape: with it (and no walkWhere) the list counts on its index beside
   * the page instead of reading its matches once (buildPage).
   */
  planOnce?: boolean;
}

/** The page: its subquery (`from(page.keys)`) and its id column, qualified, for the join. */
export interface PageKeys {
  keys: SubqueryWithSelection<{ id: SQL.Aliased<string>; sortKey: SQL.Aliased<unknown> }, 'page'>;
  id: SQL;
}

/**
 * A list whose page the database writes as JSON (listPageJson): `rows` selects `pageAsJson(...)` (each row's wire
 * object, built in SQL) from the page's keys and its joins. The server sends the text as it is: no rows to read,
 * map and write again in JavaScript, and the call's session look-up can ride in the same statement (db/ride.ts).
 */
export interface JsonListSpec extends Omit<ListSpec<never>, 'rows'> {
  rows: (page: PageKeys, pageOrder: SQL[], total: SQL.Aliased<number>) => { getSQL(): SQL };
  /** Where a look-up to send with the statement is found (a read-only call's session: http/session.ts). */
  riders?: RiderSource | null;
}

/**
 * The fields of a JSON list's `rows`: its page's wire objects (`item`, a json expression over the joined rows) in
 * the page's order as one JSON array's text, and its total (null when the page is empty: listPage counts apart).
 */
export const pageAsJson = (item: SQL, pageOrder: SQL[], total: SQL.Aliased<number>) => ({
  items: sql<string>`coalesce(json_agg(${item} order by ${sql.join(pageOrder, sql`, `)}), '[]')::text`.as(
    'items',
  ),
  total: sql<number | null>`min(${total.getSQL()})`.as('list_total'),
});

/** A built statement, run with its placeholders' values (drizzle's prepared query, without a server-side name). */
interface BuiltStatement<Row> {
  params: unknown[];
  execute(values: Record<string, unknown>): Promise<Row[]>;
}

/** A page's statement as it is kept: run with a call's values, its page and total (undefined: the page is empty). */
interface PageStatement<Page> {
  params: unknown[];
  run(values: Record<string, unknown>, rider?: Rider): Promise<{ page: Page; n: number | undefined }>;
}

/** What listPage binds itself: a page size the panel never asks for, a later page's place, by name. */
const PAGE_VALUES = {
  limit: sql.placeholder('limit'),
  offset: sql.placeholder('offset'),
  /** 2 * offset + limit: a kept total at least this big puts the page in the first half. */
  nearStart: sql.placeholder('nearStart'),
};

/**
 * A whole number written into a list statement's text rather than bound. PostgreSQL weighs the plan it keeps
 * for a statement (made without its values) against planning it with them, and costs an unknown LIMIT or OFFSET
 * as a tenth of the rows (every name lookup of a people page run for 1,700 rows) and an unknown user type as
 * the average type: it never chose the kept plan, and a list said to be planned once was planned on every call
 * (a page of customers then cost more than with its kept plan). So the panel's page sizes, the first
 * ten pages' places, the cap and a list's user type are written: a few values each, so a few texts. Any other
 * page size or a deeper page stays bound, so a client cannot fill the kept statements with texts.
 */
export function written(n: number): Placeholder {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new Error(`only a whole number is written into a statement: ${n}`);
  // Drizzle's LIMIT takes a number or a placeholder, and writes any SQL it is given as it is.
  return sql.raw(String(n)) as unknown as Placeholder;
}

/** One of an enum's values written into a statement's text, as `written` writes numbers (a few values, a few texts). */
export function writtenChoice<T extends string>(value: T, choices: readonly T[]): Placeholder {
  if (!choices.includes(value) || !/^[A-Z_]+$/.test(value))
    throw new Error(`only one of ${choices.join(', ')} is written into a statement: ${value}`);
  return sql.raw(`'${value}'`) as unknown as Placeholder;
}

/**
 * A deeper page's place, bound but read through a subquery, so no plan sees its value. PostgreSQL costs a bound
 * OFFSET it can see by its value when it plans with the values, and as a tenth of the rows in the plan it keeps;
 * a deep page (500 of 7,800) then always cost less planned per call, and was. Unseen by both, the two cost the
 * same and the kept plan is used: one plan for every deeper page, whichever it is. Its shape is the same index
 * walk (the list-plans test explains it).
 */
const UNSEEN_OFFSET = sql`(select ${PAGE_VALUES.offset}::bigint)` as unknown as Placeholder;

/** COUNT_CAP + 1: how many matches a capped list reads to know it is past the cap. */
const PAST_CAP = written(COUNT_CAP + 1);

/** The page sizes the panel asks for: a list page, and the largest page its export reads. */
const WRITTEN_PAGE_SIZES: readonly number[] = [PAGE_SIZE, MAX_PAGE_SIZE];
const isWrittenSize = (limit: number) => WRITTEN_PAGE_SIZES.includes(limit);

/**
 * The first pages, where a user pages with the pager's buttons: their place is written too (ten texts a shape at
 * most), so they keep their plan. Past them a page's place is bound and it is planned with its values.
 */
const WRITTEN_PAGES = 10;

/** The page's place when it is written into the text (0 on the first page), or undefined when it is bound. */
const writtenOffset = (page: PageRequest) => {
  const offset = offsetOf(page);
  return offset === 0 ||
    (isWrittenSize(page.limit) && offset < WRITTEN_PAGES * page.limit && offset % page.limit === 0)
    ? offset
    : undefined;
};

/** Per database (a pool's drizzle instance), the statements kept by shape; a bound, not a tuning. */
const keptStatements = new WeakMap<object, Map<string, PageStatement<unknown>>>();
const MAX_KEPT_SHAPES = 500;
const dialect = new PgDialect();

const isBound = (param: unknown) =>
  is(param, Placeholder) || (is(param, Param) && is(param.value, Placeholder));

/** A fragment's text, or undefined when it holds a value that is not a placeholder (its statement is not kept). */
function boundText(fragment: SQL | undefined): string | undefined {
  if (!fragment) return '';
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  return params.every(isBound) ? text : undefined;
}

/**
 * The page's branch: a kept total past the written first pages reads from either end; a capped count reads its
 * matches once, or nothing when the list is known past the cap.
 */
const branchOf = (spec: ListSpec<unknown>, pastCap: boolean) =>
  typeof spec.total === 'object'
    ? writtenOffset(spec.page) === undefined
      ? 'kept-far'
      : 'kept'
    : pastCap
      ? 'past-cap'
      : spec.total;

/**
 * A list's filter as its statement is kept under, or undefined when it is not kept: a list without a name, a
 * transaction's database (a statement built on it runs on its connection only), or a filter holding an unbound
 * value. The text of the filter and of the kept total says everything a call's values may change.
 */
function filterOf(db: Queryable, spec: ListSpec<unknown>): string | undefined {
  if (!spec.statement || !('$client' in db)) return undefined;
  const where = boundText(spec.where);
  const walkWhere = boundText(spec.walkWhere);
  const kept = typeof spec.total === 'object' ? boundText(spec.total.kept) : '';
  if (where === undefined || walkWhere === undefined || kept === undefined) return undefined;
  // planOnce too: with the filter's text it decides a capped list's shape (buildPage).
  const keys = spec.planOnce ? 'planOnce' : '';
  return `${spec.statement}|${keys}|${where}|${walkWhere}|${kept}`;
}

/** The shape a list's statement is kept under: its filter (filterOf), branch, page size and place, and sort. */
function shapeOf(spec: ListSpec<unknown>, filter: string, pastCap: boolean): string {
  const { name, order } = sortOf(spec.sort, spec.page);
  const at = writtenOffset(spec.page);
  const place = `${isWrittenSize(spec.page.limit) ? spec.page.limit : 'limit'} at ${at ?? 'offset'}`;
  return `${branchOf(spec, pastCap)}|${place}|${name} ${order}|${filter}`;
}

/**
 * Per database, the capped lists known to be past the cap: their filter's text and values, and until when. For a
 * minute after a list is found past the cap its calls answer "1,000+" and read their page alone, without reading
 * a thousand matches to count them again: a search's next pages, the panel's refetches and every other caller of
 * the same list, which then skips reading a thousand matches (a name search read hundreds of table pages to
 * count them). Matches seldom fall back under the cap
 * (users and postings are never deleted), and a page past the end counts again and says the real total.
 */
const pastCapUntil = new WeakMap<object, Map<string, number>>();
/** How long a list found past the cap is taken to still be: a bound on how stale "1,000+" can be. */
const PAST_CAP_FOR_MS = 60_000;
/** Lists remembered per database, the oldest forgotten first: a bound, not a tuning. */
const MAX_PAST_CAP = 2_000;

/**
 * Forgets which lists were found past the cap, so the next call of each counts again: for a caller that changed
 * a table wholesale behind the lists' backs (the bench measures a search's first call with it).
 */
export function forgetPastCaps(db: Queryable) {
  pastCapUntil.delete(db);
}

function knownPastCap(db: Queryable, key: string | undefined) {
  if (key === undefined) return false;
  const known = pastCapUntil.get(db);
  const until = known?.get(key);
  if (until === undefined) return false;
  if (until > Date.now()) return true;
  known?.delete(key);
  return false;
}

function rememberPastCap(db: Queryable, key: string, past: boolean) {
  let known = pastCapUntil.get(db);
  if (!past) {
    known?.delete(key);
    return;
  }
  if (!known) {
    known = new Map();
    pastCapUntil.set(db, known);
  }
  // The oldest entry makes room (a Map keeps insertion order); re-inserting moves a key to the end.
  known.delete(key);
  if (known.size >= MAX_PAST_CAP) known.delete(known.keys().next().value as string);
  known.set(key, Date.now() + PAST_CAP_FOR_MS);
}

/**
 * The one list helper: a page of rows and the total matching `where`, for every list call (`state/fetch`,
 * `account/fetch`, `transactions/fetch`, ...). The page is found on the keys alone (an index-only path where
 * one exists), the joins run for its rows only, and the total rides along as a scalar subquery: one statement
 * (the embedded database serves one statement at a time, so each round trip counts). Only a page past the
 * last row asks for the total again, on its own.
 */
export async function listPage<Row>(db: Queryable, spec: ListSpec<Row>) {
  const { page, total, capped } = await runPage<Row[]>(db, spec as ListSpec<unknown>, {
    kind: 'rows',
    empty: [],
    build: (pastCap) => {
      const statement = buildPage(db, spec, pastCap);
      return {
        params: statement.params,
        run: async (values) => {
          const rows = await statement.execute(values);
          return { page: rows, n: (rows[0] as { total?: number } | undefined)?.total };
        },
      };
    },
  });
  return { rows: page, total, capped };
}

/**
 * listPage for a list the database writes as JSON (JsonListSpec): the page as the text of a JSON array, ready to
 * be sent, and its total. Its rider, if it has one left, goes out in the same statement, left-joined to the
 * page's one row.
 */
export async function listPageJson(db: Queryable, spec: JsonListSpec) {
  const { page, total, capped } = await runPage<string>(db, spec as unknown as ListSpec<unknown>, {
    kind: 'json',
    empty: '[]',
    riders: spec.riders,
    build: (pastCap, rider) => {
      const select = (
        spec.rows as unknown as (...args: Parameters<ListSpec<unknown>['rows']>) => { getSQL(): SQL }
      )(...pageParts(db, spec as unknown as ListSpec<unknown>, pastCap)).getSQL();
      const page = dialect.sqlToQuery(select);
      // The rider's one row (or none) is left-joined to the page's one row; its values are among the call's.
      const riding = rider ? withRider(page.sql, page.params.length, rider) : undefined;
      const text = riding?.text ?? page.sql;
      const params = riding ? [...page.params, ...riding.params] : page.params;
      return {
        params,
        run: async (values, rider) => {
          const [row] = await runStatement<JsonPageRow>(db, text, fillPlaceholders(params, values), {
            planOnce: false,
          });
          const own = rider ? deliverRider(rider, row, ['items', 'list_total']) : row;
          return { page: own?.items ?? '[]', n: own?.list_total ?? undefined };
        },
      };
    },
  });
  return { items: page, total, capped };
}

/** A JSON list's one row: its page, its total (null when the page is empty), and its rider's columns if any. */
type JsonPageRow = { items: string; list_total: number | null; rider_found?: boolean | null } & Record<
  string,
  unknown
>;

/** What runPage needs of a kind of list statement: how to build one (kept per shape) and what an empty page is. */
interface PageKind<Page> {
  kind: string;
  empty: Page;
  riders?: RiderSource | null;
  build(pastCap: boolean, rider: Rider | undefined): PageStatement<Page>;
}

/**
 * A list's page and total through its statement, built once per shape and kept: the total comes with the page;
 * only a page past the last row counts apart. A capped list found past the cap is remembered (knownPastCap).
 */
async function runPage<Page>(db: Queryable, spec: ListSpec<unknown>, kind: PageKind<Page>) {
  const offset = offsetOf(spec.page);
  const { limit } = spec.page;
  const filter = filterOf(db, spec);
  // A capped list's count depends on its filter and its values only (not the page or the sort).
  const countKey =
    spec.total === 'capped' && filter !== undefined
      ? `${filter}|${JSON.stringify(spec.bindings?.values ?? {})}`
      : undefined;
  const pastCap = knownPastCap(db, countKey);
  // Taken last thing before the statement goes out, and handed back (fail) if it does not.
  const rider = kind.riders?.rider();
  let result: { page: Page; n: number | undefined };
  try {
    const values = {
      ...spec.bindings?.values,
      ...rider?.values,
      limit,
      offset,
      nearStart: 2 * offset + limit,
    };
    const shape =
      filter === undefined
        ? undefined
        : `${kind.kind}${rider ? `+${rider.name}` : ''}|${shapeOf(spec, filter, pastCap)}`;
    const kept = shape === undefined ? undefined : keptStatements.get(db);
    let statement = shape === undefined ? undefined : (kept?.get(shape) as PageStatement<Page> | undefined);
    if (!statement) {
      statement = kind.build(pastCap, rider);
      if (shape !== undefined && statement.params.every(isBound)) {
        const shapes = kept ?? new Map<string, PageStatement<unknown>>();
        if (!kept) keptStatements.set(db, shapes);
        if (shapes.size < MAX_KEPT_SHAPES) shapes.set(shape, statement as PageStatement<unknown>);
      }
    }
    result = await statement.run(values, rider);
  } catch (error) {
    rider?.fail();
    throw error;
  }
  let { page, n } = result;
  if (n === undefined) {
    const values = { ...spec.bindings?.values, limit, offset, nearStart: 2 * offset + limit };
    const [row] = await db
      .select({ n: sql<number>`${countOf(spec)}`.mapWith(Number) })
      .from(sql`(select 1) as one`)
      .execute(values);
    n = row?.n ?? 0;
    page = kind.empty;
  }
  const capped = spec.total === 'capped' && n > COUNT_CAP;
  if (countKey !== undefined && capped !== pastCap) rememberPastCap(db, countKey, capped);
  return { page, total: capped ? COUNT_CAP : n, capped };
}
/** The list's total for its filter, as a scalar expression: the kept one, or a count (capped or exact). */
function countOf(spec: ListSpec<unknown>): SQL {
  if (typeof spec.total === 'object') return spec.total.kept;
  const { key } = sortOf(spec.sort, spec.page);
  const matching = spec.keys(sql`${key}`.as('sort_key')).where(spec.where);
  return sql`(select count(*) from (${spec.total === 'capped' ? matching.limit(PAST_CAP) : matching}) as matching)`;
}

/**
 * Builds the page's statement (rows and total): the panel's page sizes and the first ten pages' places written,
 * others as placeholders (PAGE_VALUES).
 */
function buildPage<Row>(db: Queryable, spec: ListSpec<Row>, pastCap = false): BuiltStatement<Row> {
  // Drizzle's prepared query without a server-side name: the plan cache (plan-cache.ts) names what may keep its
  // plan. Its rows are mapped by a mapper made once with it (row-mapper.ts).
  return withCompiledRowMapper(
    (
      spec.rows(...pageParts(db, spec as ListSpec<unknown>, pastCap)) as unknown as {
        _prepare(): BuiltStatement<Row> & PreparedSelect;
      }
    )._prepare(),
  );
}

/** What a list's `rows` is given: the page's keys (a subquery), their order and the total's field. */
function pageParts(
  db: Queryable,
  spec: ListSpec<unknown>,
  pastCap: boolean,
): [PageKeys, SQL[], SQL.Aliased<number>] {
  const { key, direction } = sortOf(spec.sort, spec.page);
  const sortKey = sql`${key}`.as('sort_key');
  const limit = isWrittenSize(spec.page.limit) ? written(spec.page.limit) : PAGE_VALUES.limit;
  const at = writtenOffset(spec.page);
  const offset = at === undefined ? UNSEEN_OFFSET : written(at);
  const { nearStart: nearStartAt } = PAGE_VALUES;
  // No filter, or equalities an index serves whatever their values (planOnce).
  const keyFilter = spec.where === undefined || spec.planOnce === true;
  // A capped search (walkWhere), a LIKE or a path prefix takes the shape below that reads its matches once: they
  // may be few and found only by reading far. A capped list of no filter or a key filter (a type, a user, a
  // sale, a status) is found in its sort's order through an index and counted there, index only, beside the
  // page: quicker than the other shape, which keeps a thousand rows to count them.
  const readsMatchesOnce =
    !pastCap && spec.total === 'capped' && (spec.walkWhere !== undefined || !keyFilter);
  const fromStart = (where: SQL | undefined) =>
    spec
      .keys(sortKey)
      .where(where)
      .orderBy(direction(key), direction(spec.sort.id))
      .limit(limit)
      // No OFFSET at all on the first page (drizzle leaves out a zero).
      .offset(at === 0 ? 0 : offset);
  let keys: PageKeys['keys'];
  if (typeof spec.total === 'object' && at === undefined) {
    // Past the written first pages, a kept total tells which end of the index a page is nearer: a page past the
    // middle is read from the far end, walking (total - offset) keys instead of offset (the last of 7,900 pages
    // costs as little as the first). Both branches are planned; a one-time filter on the total runs only the one
    // that applies.
    const n = sql`(${spec.total.kept})`;
    const reverse = direction === asc ? desc : asc;
    const nearStart = sql`${n} >= ${nearStartAt}`;
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
  } else if (readsMatchesOnce) {
    // A capped search reads its matches once, up to the cap, and counts them; when they are fewer than the cap
    // (a typeahead's few hundred) its page is sorted from them, and only past the cap is the page read again
    // through the list's index. A search's index finds its matches in any order, so before, the same matches
    // were read twice: once to count them, once to sort them.
    const cap = sql.raw(String(COUNT_CAP));
    // Counted once (`counted`): the count is read in three places, and each `count(*) from matching` was a
    // subquery of its own, so the thousand matches were counted three times (0.3 of a transactions page's 1.0
    // ms on PostgreSQL).
    const matchCount = sql`(select n from counted)`;
    const fromMatching = sql`select id, sort_key from matching where ${matchCount} <= ${cap}
      order by ${direction(sql`sort_key`)}, ${direction(sql`id`)} limit ${limit} offset ${offset}`;
    const fromIndex = fromStart(and(spec.walkWhere ?? spec.where, sql`${matchCount} > ${cap}`));
    const matching = spec.keys(sortKey).where(spec.where).limit(PAST_CAP);
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
  } else if (pastCap) {
    // Known past the cap (listPage): the page is the first rows down the sort's index that match, and nothing
    // is counted.
    keys = fromStart(spec.walkWhere ?? spec.where).as('page') as unknown as PageKeys['keys'];
  } else {
    keys = fromStart(spec.where).as('page') as unknown as PageKeys['keys'];
  }
  // The page's columns, qualified: the joined tables have columns of the same names.
  const page: PageKeys = { keys, id: sql`"page"."id"` };
  const pageOrder = [direction(sql`"page"."sort_key"`), direction(sql`"page"."id"`)];
  // A list with a kept total (one type or scope, one sort), no filter at all or equalities only (planOnce) has
  // one best plan whatever page it asks for: it is planned once per connection. A LIKE search or a path prefix
  // is planned with its values each time.
  const planOnce = typeof spec.total === 'object' || keyFilter ? sql.raw(`${PLAN_ONCE} `) : sql``;
  // A page that reads its matches once carries its count (above); the others' total is a scalar subquery beside
  // the rows.
  const total =
    sql<number>`${planOnce}${pastCap ? sql.raw(String(COUNT_CAP + 1)) : readsMatchesOnce ? sql`"page"."list_n"` : countOf(spec)}`
      .mapWith(Number)
      .as('list_total');
  return [page, pageOrder, total];
}

/** The key fields a list's `keys` select takes: its id and the page's sort key. */
export const keyFields = (id: AnyPgColumn, sortKey: SQL.Aliased) => ({
  id: sql<string>`${id}`.as('id'),
  sortKey,
});
