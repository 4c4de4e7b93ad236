import { getTableColumns, type Table } from 'drizzle-orm';
import pg from 'pg';
import type { Queryable } from './open';

/**
 * Hand-written statements for the hottest paths (the session look-up of every signed-in call; the partner
 * callback's and the ledger's writes), run on the transaction's own connection. Drizzle rebuilds a query's text
 * and walks its fields on every call (JavaScript that was most of what the callback cost beyond its SQL, and
 * that ran under the admin wallet's lock: tests/bench/ledger.ts); these texts are built once. Everywhere else the
 * query builder stays: it is what keeps queries typed and readable (the big lists keep what it builds, once per
 * shape: db/list.ts). Their plans do not depend on their values (keys, ids), so each is planned once per
 * connection (plan-cache.ts).
 */

const INT8 = 20;
/** bigint columns hold paise and counts, far inside Number's exact range: read as numbers, like the schema's `mode: 'number'`. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** The connection `q` runs on: a transaction's own pooled client, or the pool. */
function connectionOf(q: Queryable): pg.Pool | pg.PoolClient {
  // A drizzle transaction keeps its pooled client on its session (drizzle-orm/node-postgres NodePgSession).
  const client =
    '$client' in q
      ? (q.$client as pg.Pool)
      : (q as unknown as { session: { client?: pg.PoolClient } }).session.client;
  if (!client || typeof client.query !== 'function')
    throw new Error('runStatement needs a node-postgres database or one of its transactions');
  return client;
}

/**
 * Runs the SQL `text` with `values` ($1, $2, ...) on `q`'s connection; the rows as PostgreSQL returns them. Planned
 * once per connection unless `planOnce` is false (a statement whose best plan depends on its values).
 */
export async function runStatement<Row>(
  q: Queryable,
  text: string,
  values: unknown[],
  { planOnce = true } = {},
): Promise<Row[]> {
  const result = await connectionOf(q).query({ text, values, types, planOnce } as pg.QueryConfig);
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
