import { and, eq, ilike, ne, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { Conflict, isUniqueViolation, NotFound } from './errors';
import { keyFields, type ListSpec, listPage, type PageRequest } from './list';
import type { Queryable, Tx } from './open';
import type { districts, products, providers, states, tehsils } from './schema';
import { likePattern } from './search';

/** The entities whose names are unique (ignoring case) under their parent, if any. */
type NamedTable = typeof states | typeof districts | typeof tehsils | typeof providers | typeof products;
type RowOf<T extends NamedTable> = T['$inferSelect'];

export interface SaveNamed<T extends NamedTable> {
  /** Absent: create. Present: update that row (404 when there is none). */
  id?: string;
  values: T['$inferInsert'] & { name: string };
  /** The column names are unique under, with the parent's id (districts: stateId). */
  parent?: { column: AnyPgColumn; id: string };
  messages: { duplicate: string; notFound: string };
}

/**
 * The one save of a uniquely named entity (states, districts, tehsils, providers, products), inside the
 * caller's transaction: refuses a name taken under the same parent (Conflict, `param: name`), locks and reads the
 * row being updated (NotFound when missing), writes, and lets the unique index decide a race two saves both won
 * against the check (the loser gets the same 409). Returns the row before (updates) and after, for the audit.
 */
export async function saveNamed<T extends NamedTable>(
  tx: Tx,
  table: T,
  spec: SaveNamed<T>,
): Promise<{ before: RowOf<T> | null; row: RowOf<T> }> {
  const t = table as typeof states;
  const [taken] = await tx
    .select({ id: t.id })
    .from(t)
    .where(
      and(
        sql`lower(${t.name}) = lower(${spec.values.name})`,
        spec.parent ? eq(spec.parent.column, spec.parent.id) : undefined,
        spec.id ? ne(t.id, spec.id) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw new Conflict(spec.messages.duplicate, 'name');
  let before: RowOf<T> | null = null;
  if (spec.id) {
    [before] = (await tx.select().from(t).where(eq(t.id, spec.id)).for('update')) as RowOf<T>[];
    if (!before) throw new NotFound(spec.messages.notFound);
  }
  const row = await guardUnique(spec.messages.duplicate, async () => {
    const written = spec.id
      ? await tx
          .update(t)
          .set(spec.values as typeof states.$inferInsert)
          .where(eq(t.id, spec.id))
          .returning()
      : await tx
          .insert(t)
          .values(spec.values as typeof states.$inferInsert)
          .returning();
    return written[0] as RowOf<T>;
  });
  return { before, row };
}

/** A row as the audit trail records it: its columns less the id and creation time. */
export function rowView<R extends Record<string, unknown>>(row: R | null | undefined, omit: string[] = []) {
  if (!row) return null;
  const skip = new Set(['id', 'createdAt', ...omit]);
  return Object.fromEntries(Object.entries(row).filter(([key]) => !skip.has(key)));
}

/** Two saves racing past a duplicate check: the unique index decides, and the loser gets the same Conflict. */
async function guardUnique<T>(message: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict(message, 'name');
    throw error;
  }
}

/** A page of a named list as its call asks for it: sorted by name or creation time, searched by name, or one record. */
export interface NamedListRequest extends PageRequest {
  sort?: 'name' | 'createdAt';
  searchText?: string;
  /** One record by id. */
  _id?: string;
}

/**
 * The one list of a named entity (states, districts, tehsils, providers, products): a page and its exact total
 * (db/list.ts), searched by name ignoring case, or one record by `_id`, narrowed by `filters` (a parent's id), sorted
 * by name (ignoring case) or creation time, newest first by default. `rows` joins the page to what each row shows.
 */
export function listNamed<T extends NamedTable, Row>(
  db: Queryable,
  table: T,
  request: NamedListRequest,
  spec: { filters?: (SQL | undefined)[]; rows: ListSpec<Row>['rows'] },
) {
  const t = table as typeof states;
  return listPage(db, {
    keys: (sortKey) => db.select(keyFields(t.id, sortKey)).from(t).$dynamic(),
    rows: spec.rows,
    where: and(
      request.searchText ? ilike(t.name, likePattern(request.searchText)) : undefined,
      request._id ? eq(t.id, request._id) : undefined,
      ...(spec.filters ?? []),
    ),
    page: request,
    sort: {
      columns: { name: sql`lower(${t.name})`, createdAt: t.createdAt },
      default: 'createdAt',
      id: t.id,
    },
    total: 'exact',
  });
}
