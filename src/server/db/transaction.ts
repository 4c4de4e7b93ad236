import type { Db, Tx } from './open';

/** PostgreSQL's "try again" errors: deadlock_detected, serialization_failure, lock_not_available. */
const RETRYABLE = new Set(['40P01', '40001', '55P03']);

export function isRetryable(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return RETRYABLE.has(e?.code ?? '') || RETRYABLE.has(e?.cause?.code ?? '');
}

/**
 * Runs `work` in a transaction and runs it again (up to `attempts` times, with a short random pause) when
 * PostgreSQL aborted it as a deadlock victim or a serialization failure, so such an abort never reaches the
 * caller as an error. The work must be safe to repeat: everything it wrote was rolled back with the abort.
 */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>, attempts = 6): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
    }
  }
}
