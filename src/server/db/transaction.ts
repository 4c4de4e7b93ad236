import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { PgTransaction, type PgTransactionConfig } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Queryable, Tx } from './open';
import * as schema from './schema';

/**
 * PostgreSQL's "try again" errors: deadlock_detected and serialization_failure (one of two writers waiting on
 * each other was aborted), lock_not_available.
 */
const RETRYABLE = new Set(['40P01', '40001', '55P03']);
const MAX_ATTEMPTS = 6;

const codeOf = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code ?? e?.cause?.code;
};

export const isRetryable = (error: unknown) => RETRYABLE.has(codeOf(error) ?? '');

/** Drizzle over one pooled connection, made once per connection (making it reads the whole schema). */
const onConnection = new WeakMap<pg.PoolClient, NodePgDatabase<typeof schema>>();
/** The pooled connection each transaction runs on. */
const connections = new WeakMap<Tx, pg.PoolClient>();

/**
 * The connection a transaction of `inTransaction` runs on, for a statement sent through pg itself
 * (statements.ts); undefined for any other transaction handle.
 */
export const connectionOf = (tx: Tx): pg.PoolClient | undefined => connections.get(tx);

/** One attempt: `work` in a transaction on a connection taken from the pool, which it gives back after. */
async function attempt<T>(pool: pg.Pool, work: (tx: Tx) => Promise<T>, config?: PgTransactionConfig) {
  const client = await pool.connect();
  try {
    let db = onConnection.get(client);
    if (!db) {
      db = drizzle(client, { schema });
      onConnection.set(client, db);
    }
    return await db.transaction((tx) => {
      connections.set(tx, client);
      return work(tx);
    }, config);
  } finally {
    client.release();
  }
}

/**
 * Runs `work` in one transaction (or inside the caller's, when `q` already is one). Writes read what they
 * decide on inside `work`, locking those rows, so two writers never decide on the same stale read. Should
 * PostgreSQL still abort one of two writers, the whole transaction runs again (with a short random pause): it
 * re-reads everything, so such an abort never reaches the caller as an error. `config`: its isolation level and
 * access mode (a read-only snapshot, for instance).
 */
export async function inTransaction<T>(
  q: Queryable,
  work: (tx: Tx) => Promise<T>,
  config?: PgTransactionConfig,
): Promise<T> {
  if (q instanceof PgTransaction) return work(q as Tx);
  for (let attempts = 1; ; attempts++) {
    try {
      return await attempt(q.$client, work, config);
    } catch (error) {
      if (attempts >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempts));
    }
  }
}
