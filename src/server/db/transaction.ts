import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { PgTransaction, type PgTransactionConfig } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { connectionEndOf, DatabaseUnavailable, isSwitchover, sqlStateOf } from './errors';
import type { Db, Queryable, Tx } from './open';
import * as schema from './schema';

/** read_only_sql_transaction: the connection reached a server that is not the primary (one just demoted). */
const READ_ONLY = '25006';

/**
 * PostgreSQL's "try again" errors: deadlock_detected and serialization_failure (one of two writers waiting on
 * each other was aborted), lock_not_available.
 */
const RETRYABLE = new Set(['40P01', '40001', '55P03']);
const MAX_ATTEMPTS = 6;

export const isRetryable = (error: unknown) => RETRYABLE.has(sqlStateOf(error) ?? '');

/** Drizzle over one pooled connection, made once per connection (making it reads the whole schema). */
const onConnection = new WeakMap<pg.PoolClient, NodePgDatabase<typeof schema>>();
/** The pooled connection each transaction runs on. */
const connections = new WeakMap<Tx, pg.PoolClient>();

/**
 * The connection a transaction of `inTransaction` runs on, for a statement sent through pg itself
 * (statements.ts); undefined for any other transaction handle.
 */
export const connectionOf = (tx: Tx): pg.PoolClient | undefined => connections.get(tx);

/**
 * One attempt: `work` in a transaction on a connection taken from the pool, which it gives back after (dropped
 * when it reached a server that is no longer the primary). Throws the connection's end, or the work's own failure,
 * rather than a rollback that failed after them.
 */
async function attempt<T>(pool: pg.Pool, work: (tx: Tx) => Promise<T>, config?: PgTransactionConfig) {
  const client = await pool.connect();
  let failure: unknown;
  let readOnly = false;
  try {
    let db = onConnection.get(client);
    if (!db) {
      db = drizzle(client, { schema });
      onConnection.set(client, db);
    }
    return await db.transaction(async (tx) => {
      connections.set(tx, client);
      try {
        return await work(tx);
      } catch (error) {
        failure = error;
        readOnly = sqlStateOf(error) === READ_ONLY;
        throw error;
      }
    }, config);
  } catch (thrown) {
    throw connectionEndOf(client) ?? failure ?? thrown;
  } finally {
    client.release(readOnly ? new Error('not the primary') : undefined);
  }
}

/**
 * Runs `work` in one transaction (or inside the caller's, when `q` already is one). Writes read what they
 * decide on inside `work`, locking those rows, so two writers never decide on the same stale read. Should
 * PostgreSQL still abort one of two writers, the whole transaction runs again (with a short random pause): it
 * re-reads everything, so such an abort never reaches the caller as an error. `config`: its isolation level and
 * access mode (a read-only snapshot, for instance).
 *
 * When the transaction's connection ends under it (a failover, a terminated backend), drizzle's rollback then fails
 * on the dead connection and would be what the caller sees: the caller gets the connection's end, or the work's own
 * failure, instead, which say what happened (db/errors.ts, isSwitchover). A connection that reached a server no
 * longer the primary (read-only) is dropped from the pool instead of being handed out again.
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

/**
 * How long a request that may run twice (a read, a keyed sale, the partner's callback) waits for a primary after
 * the database failed under it, before it is answered 503: long enough for a switchover or a restart of the
 * primary, short enough that a person still waits for the answer (http/failover.ts).
 */
export const FAILOVER_WAIT_MS = 15_000;

/** One look at the primary answers within this, like the health check's (http/health.ts). */
const PROBE_MS = 2_000;

/**
 * Whether the primary answers and takes writes (is not in recovery: a server just demoted answers, read-only),
 * within PROBE_MS or `withinMs`, whichever is shorter. A connection that fails, or reached a server in recovery, is
 * dropped from the pool.
 */
export async function primaryAnswers(db: Db, withinMs = PROBE_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.min(PROBE_MS, withinMs));
  });
  const ask = async () => {
    const client = await db.$client.connect();
    let primary = false;
    try {
      const { rows } = await client.query<{ recovering: boolean }>(
        'select pg_is_in_recovery() as recovering',
      );
      primary = rows[0]?.recovering === false;
      return primary;
    } finally {
      client.release(primary ? undefined : new Error('not the primary'));
    }
  };
  const answer = ask().catch(() => false);
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits until the primary answers (primaryAnswers), looking again after a pause that grows from 0.1 to 1 s;
 * false when `until` (Date.now()) comes first.
 */
export async function waitForPrimary(db: Db, until: number): Promise<boolean> {
  for (let pause = 100; ; pause = Math.min(2 * pause, 1_000)) {
    if (await primaryAnswers(db, until - Date.now())) return true;
    if (Date.now() + pause >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * Whether a failure that is not a refusal of the app's own is the primary's absence: by what it says (a waited-for
 * primary that never came, a SQLSTATE or connection code, a connection's end: isSwitchover), or, when it says
 * nothing known, by a primary that does not answer now (pg reports a connection refused by a proxy with no primary
 * behind it with no code at all).
 */
export async function primaryAbsent(db: Db, failure: unknown): Promise<boolean> {
  return failure instanceof DatabaseUnavailable || isSwitchover(failure) || !(await primaryAnswers(db));
}
