import { and, asc, eq, sql } from 'drizzle-orm';
import {
  IMPORT_MSG,
  type ImportCounts,
  type ImportKind,
  type ImportMode,
  type ImportRowError,
  type WireImportJob,
} from '../../../shared/schemas/imports';
import type { Queryable } from '../../db/open';
import { importErrors, importJobs } from '../../db/schema';

/** A job as it starts: the file is kept in its row, so no server's memory is the only copy. */
export async function createJob(
  q: Queryable,
  job: {
    kind: ImportKind;
    fileName: string;
    dryRun: boolean;
    mode: ImportMode;
    actorId: string;
    content: Buffer;
    total: number;
  },
) {
  const [row] = await q.insert(importJobs).values(job).returning({ id: importJobs.id });
  return row.id;
}

/** Adds a batch's counts and row errors to its job (inside the batch's transaction when it wrote). */
export async function recordProgress(
  q: Queryable,
  jobId: string,
  delta: ImportCounts,
  errors: ImportRowError[],
) {
  for (let i = 0; i < errors.length; i += 1000)
    await q.insert(importErrors).values(errors.slice(i, i + 1000).map((e) => ({ jobId, ...e })));
  await q
    .update(importJobs)
    .set({
      read: sql`${importJobs.read} + ${delta.read}`,
      created: sql`${importJobs.created} + ${delta.created}`,
      updated: sql`${importJobs.updated} + ${delta.updated}`,
      unchanged: sql`${importJobs.unchanged} + ${delta.unchanged}`,
      conflicts: sql`${importJobs.conflicts} + ${delta.conflicts}`,
      refused: sql`${importJobs.refused} + ${delta.refused}`,
      updatedAt: sql`now()`,
    })
    .where(eq(importJobs.id, jobId));
}

/** The heartbeat of a job its server is running: `updated_at` is now (a finished job is left as it is). */
export async function touchJob(q: Queryable, jobId: string) {
  await q
    .update(importJobs)
    .set({ updatedAt: sql`now()` })
    .where(and(eq(importJobs.id, jobId), eq(importJobs.status, 'RUNNING')));
}

/** Ends a job: DONE, or FAILED with the reason; answers its counts for the audit trail. */
export async function finishJob(q: Queryable, jobId: string, failure: string | null) {
  const [row] = await q
    .update(importJobs)
    .set({ status: failure ? 'FAILED' : 'DONE', message: failure, updatedAt: sql`now()` })
    .where(eq(importJobs.id, jobId))
    .returning();
  return countsOf(row);
}

const countsOf = (row: ImportCounts): ImportCounts => ({
  read: row.read,
  created: row.created,
  updated: row.updated,
  unchanged: row.unchanged,
  conflicts: row.conflicts,
  refused: row.refused,
});

/**
 * `import/fetch/:id`: the job with its counts and row errors (in row order), or undefined. A RUNNING job whose
 * heartbeat is older than `staleAfterMs` (by the database's clock, the same for every server) lost its server: it
 * is answered FAILED with IMPORT_MSG.stopped. Its row is left as it is: whole batches are written, and the same
 * file sent again completes it.
 */
export async function jobView(
  q: Queryable,
  jobId: string,
  staleAfterMs: number,
): Promise<WireImportJob | undefined> {
  const [row] = await q
    .select({
      id: importJobs.id,
      kind: importJobs.kind,
      fileName: importJobs.fileName,
      status: importJobs.status,
      dryRun: importJobs.dryRun,
      mode: importJobs.mode,
      total: importJobs.total,
      read: importJobs.read,
      created: importJobs.created,
      updated: importJobs.updated,
      unchanged: importJobs.unchanged,
      conflicts: importJobs.conflicts,
      refused: importJobs.refused,
      message: importJobs.message,
      createdAt: importJobs.createdAt,
      stale: sql<boolean>`${importJobs.updatedAt} < now() - make_interval(secs => ${staleAfterMs / 1000})`,
    })
    .from(importJobs)
    .where(eq(importJobs.id, jobId));
  if (!row) return undefined;
  const errors = await q
    .select({ row: importErrors.row, column: importErrors.column, message: importErrors.message })
    .from(importErrors)
    .where(eq(importErrors.jobId, jobId))
    .orderBy(asc(importErrors.row), asc(importErrors.column));
  const lost = row.status === 'RUNNING' && row.stale;
  return {
    _id: row.id,
    kind: row.kind as ImportKind,
    fileName: row.fileName,
    status: lost ? 'FAILED' : (row.status as WireImportJob['status']),
    dryRun: row.dryRun,
    mode: row.mode as ImportMode,
    total: row.total,
    counts: countsOf(row),
    errors,
    message: lost ? IMPORT_MSG.stopped : row.message,
    createdAt: row.createdAt.toISOString(),
  };
}
