import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Queryable, Tx } from './open';

/** deadlock_detected and serialization_failure: PostgreSQL aborted one of two writers waiting on each other. */
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 4;

const codeOf = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code ?? e?.cause?.code;
};

/**
 * Runs `work` in one transaction (or inside the caller's, when `q` already is one). Writes read what they
 * decide on inside `work`, locking those rows, so two writers never decide on the same stale read. Should
 * PostgreSQL still abort one of two writers, the whole transaction runs again: it re-reads everything.
 */
export async function inTransaction<T>(q: Queryable, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (q instanceof PgTransaction) return work(q as Tx);
  for (let attempt = 1; ; attempt++) {
    try {
      return await q.transaction(work);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(codeOf(error) ?? '')) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}
