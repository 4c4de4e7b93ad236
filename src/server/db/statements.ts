import { createHash } from 'node:crypto';
import { getTableColumns, type Table } from 'drizzle-orm';
import pg from 'pg';
import type { Queryable } from './open';

/**
 * Hand-written statements for the hottest paths (the session look-up of every signed-in call; the partner
 * callback's and the ledger's writes), run on the transaction's own connection, their texts built once, at load.
 * Everywhere else the query builder stays: it is what keeps queries typed and readable. Their plans do not depend
 * on their values (keys, ids), so each is a prepared statement, named by a digest of its text (one name, one
 * text, as PostgreSQL requires) and parsed once per connection.
 */

const INT8 = 20;
/** bigint columns hold paise and counts, far inside Number's exact range: read as numbers, like the schema's `mode: 'number'`. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** The connection `q` runs on: a transaction's own pooled client, or the pool. */
export function connectionOf(q: Queryable): pg.Pool | pg.PoolClient {
  // A drizzle transaction keeps its pooled client on its session (drizzle-orm/node-postgres NodePgSession).
  const client =
    '$client' in q
      ? (q.$client as pg.Pool)
      : (q as unknown as { session: { client?: pg.PoolClient } }).session.client;
  if (!client || typeof client.query !== 'function')
    throw new Error('runStatement needs a node-postgres database or one of its transactions');
  return client;
}

/** A hand-written statement's name: a digest of its text. */
const nameOf = (text: string) => `s_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;

/**
 * Runs the SQL `text` with `values` ($1, $2, ...) on `q`'s connection; the rows as PostgreSQL returns them. A
 * prepared statement unless `prepared` is false (a statement whose best plan depends on its values).
 */
export async function runStatement<Row>(
  q: Queryable,
  text: string,
  values: unknown[],
  { prepared = true }: { prepared?: boolean } = {},
): Promise<Row[]> {
  const config: pg.QueryConfig = { text, values, types, ...(prepared ? { name: nameOf(text) } : {}) };
  const result = await connectionOf(q).query(config);
  return result.rows as Row[];
}

/**
 * The select list of every column of `table` (or of those `fields`), each named by its field (`"utm_code" as
 * "utmCode"`), so rows come back shaped like the table's `$inferSelect` (timestamps as Dates, bigints as numbers).
 */
export function columnsOf(table: Table, alias?: string, fields?: readonly string[]): string {
  return Object.entries(getTableColumns(table))
    .filter(([field]) => !fields || fields.includes(field))
    .map(([field, column]) => `${alias ? `${alias}.` : ''}"${column.name}" as "${field}"`)
    .join(', ');
}
