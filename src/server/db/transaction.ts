import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Queryable, Tx } from './open';

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

/**
 * Runs `work` in one transaction (or inside the caller's, when `q` already is one). Writes read what they
 * decide on inside `work`, locking those rows, so two writers never decide on the same stale read. Should
 * PostgreSQL still abort one of two writers, the whole transaction runs again (with a short random pause): it
 * re-reads everything, so such an abort never reaches the caller as an error.
 */
export async function inTransaction<T>(q: Queryable, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (q instanceof PgTransaction) return work(q as Tx);
  for (let attempt = 1; ; attempt++) {
    try {
      return await q.transaction(work);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
    }
  }
}
