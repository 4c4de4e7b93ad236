import { desc, eq } from 'drizzle-orm';
import type { ReconcileRun, ReconcileSource } from '../../../shared/schemas/books';
import type { ReconcileReport } from '../../../shared/wire';
import type { Db, Queryable } from '../../db/open';
import { reconcileRuns, users } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { reconcile } from '../ledger/index';
import { approvers, notify } from '../notifications/index';

/**
 * Runs of reconcile that a person asked for, kept in PostgreSQL (`reconcile_runs`): Tierdesk runs as several
 * servers, so "the latest result" is a row every server reads, never one process's memory.
 */

/** Records a finished run (its time is the report's own `checkedAt`). */
export async function recordReconcileRun(
  db: Queryable,
  report: ReconcileReport,
  by: { source: ReconcileSource; userId?: string | null },
): Promise<string> {
  const [row] = await db
    .insert(reconcileRuns)
    .values({
      ranAt: new Date(report.checkedAt),
      ok: report.ok,
      report,
      ranBy: by.userId ?? null,
      source: by.source,
    })
    .returning({ id: reconcileRuns.id });
  return row.id;
}

/** Proves the ledger (reconcile: one read-only snapshot), then records the run; answers the report and its id. */
export async function reconcileAndRecord(
  db: Db,
  ledgerKey: Buffer,
  by: { source: ReconcileSource; userId?: string | null },
): Promise<{ id: string; report: ReconcileReport }> {
  const report = await reconcile(db, ledgerKey);
  const id = await inTransaction(db, async (tx) => {
    const runId = await recordReconcileRun(tx, report, by);
    // A break is told to every admin with an e-mail address.
    if (!report.ok)
      await notify(tx, 'reconcile.break', {
        to: await approvers(tx),
        data: { runId, breaks: report.breaks.length },
      });
    return runId;
  });
  return { id, report };
}

/**
 * The latest recorded run (by its time; a tie broken by id, so every server answers the same row), or the run
 * `id`; null when there is none.
 */
export async function latestReconcileRun(db: Queryable, id?: string): Promise<ReconcileRun | null> {
  const [row] = await db
    .select({
      id: reconcileRuns.id,
      ranAt: reconcileRuns.ranAt,
      ok: reconcileRuns.ok,
      report: reconcileRuns.report,
      source: reconcileRuns.source,
      ranById: reconcileRuns.ranBy,
      ranByName: users.name,
    })
    .from(reconcileRuns)
    .leftJoin(users, eq(users.id, reconcileRuns.ranBy))
    .where(id ? eq(reconcileRuns.id, id) : undefined)
    .orderBy(desc(reconcileRuns.ranAt), desc(reconcileRuns.id))
    .limit(1);
  if (!row) return null;
  return {
    _id: row.id,
    ranAt: row.ranAt.toISOString(),
    ok: row.ok,
    source: row.source as ReconcileSource,
    ranBy: row.ranById && row.ranByName !== null ? { _id: row.ranById, name: row.ranByName } : null,
    report: row.report as ReconcileReport,
  };
}
