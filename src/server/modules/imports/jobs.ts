import { and, asc, count, eq, not, sql } from 'drizzle-orm';
import {
  IMPORT_KEPT_ERRORS,
  IMPORT_MSG,
  type ImportCounts,
  type ImportKind,
  type ImportMode,
  type ImportRowError,
  type ImportStatus,
  type WireImportJob,
} from '../../../shared/schemas/imports';
import { isUniqueViolation } from '../../db/errors';
import type { Queryable } from '../../db/open';
import { RUNNER_CLASS, type RunnerKey, runnerLockHeld } from '../../db/runner-lock';
import { importErrors, importJobs } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { conflict } from '../../http/errors';
import { importChanged } from '../events/index';
import { claimFile, newFileId } from '../files/index';

/**
 * A job's runner lock (db/runner-lock.ts): held by the server running it, from before its row is written until
 * after it is finished, so a RUNNING job whose lock nobody holds lost its server (killed, or cut off from the
 * database) whatever the engine. Its id is the job id's first 32 bits, read as PostgreSQL reads them below.
 */
export const importLock = (jobId: string): RunnerKey => [
  RUNNER_CLASS.import,
  Number.parseInt(jobId.slice(0, 8), 16) | 0,
];

/** SQL: whether the server running the job is alive (it holds the job's lock: importLock). */
const runnerAlive = runnerLockHeld(
  RUNNER_CLASS.import,
  sql`('x' || left(${importJobs.id}::text, 8))::bit(32)::int`,
);

/** Whether the person has an import running (RUNNING, and its server holds its lock). */
export async function hasRunningJob(q: Queryable, actorId: string): Promise<boolean> {
  const [row] = await q
    .select({ id: importJobs.id })
    .from(importJobs)
    .where(and(eq(importJobs.actorId, actorId), eq(importJobs.status, 'RUNNING'), runnerAlive));
  return row !== undefined;
}

/**
 * A job as it starts, with its file claimed in the file store (`size` bytes, written by the job: run.ts), in one
 * transaction; its server holds its lock already (importLock). One running import per person, whichever server
 * runs it: the person's job that lost its server (RUNNING, its lock free) ends FAILED as `import/fetch` already
 * answered it, and the unique index on RUNNING jobs per person refuses a second one (409).
 */
export async function createJob(
  q: Queryable,
  job: {
    id: string;
    kind: ImportKind;
    fileName: string;
    dryRun: boolean;
    mode: ImportMode;
    actorId: string;
    size: number;
    total: number;
  },
): Promise<{ id: string; fileId: string }> {
  try {
    return await inTransaction(q, async (tx) => {
      await tx
        .update(importJobs)
        .set({ status: 'FAILED', message: IMPORT_MSG.stopped })
        .where(and(eq(importJobs.actorId, job.actorId), eq(importJobs.status, 'RUNNING'), not(runnerAlive)));
      const fileId = newFileId();
      await claimFile(tx, { id: fileId, contentType: 'text/csv', size: job.size });
      const { size: _size, ...values } = job;
      const [row] = await tx
        .insert(importJobs)
        .values({ ...values, fileId })
        .returning({ id: importJobs.id });
      return { id: row.id, fileId };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(IMPORT_MSG.running);
    throw error;
  }
}

/**
 * Adds a batch's counts and row errors to its job, in one transaction (the batch's own when it wrote). Every error
 * is counted; the job keeps the first IMPORT_KEPT_ERRORS in the file's order, whichever batch ends first: the job's
 * row is locked first, so batches running side by side add theirs one after the other.
 */
export async function recordProgress(
  q: Queryable,
  jobId: string,
  delta: ImportCounts,
  errors: ImportRowError[],
) {
  await inTransaction(q, async (tx) => {
    const [job] = await tx
      .update(importJobs)
      .set({
        read: sql`${importJobs.read} + ${delta.read}`,
        created: sql`${importJobs.created} + ${delta.created}`,
        updated: sql`${importJobs.updated} + ${delta.updated}`,
        unchanged: sql`${importJobs.unchanged} + ${delta.unchanged}`,
        conflicts: sql`${importJobs.conflicts} + ${delta.conflicts}`,
        refused: sql`${importJobs.refused} + ${delta.refused}`,
        errorsFound: sql`${importJobs.errorsFound} + ${errors.length}`,
      })
      .where(eq(importJobs.id, jobId))
      .returning();
    if (job) await importChanged(tx, jobEvent(job));
    if (errors.length === 0) return;
    const [kept] = await tx
      .select({ count: count(), last: sql<number | null>`max(${importErrors.row})` })
      .from(importErrors)
      .where(eq(importErrors.jobId, jobId));
    // Once the job keeps its fill, only errors of rows before its last kept one can take a place.
    const candidates = (kept.count < IMPORT_KEPT_ERRORS ? errors : errors.filter((e) => e.row <= kept.last!))
      .sort((a, b) => a.row - b.row)
      .slice(0, IMPORT_KEPT_ERRORS);
    if (candidates.length === 0) return;
    await tx.insert(importErrors).values(candidates.map((e) => ({ jobId, ...e })));
    if (kept.count + candidates.length > IMPORT_KEPT_ERRORS)
      await tx.execute(sql`delete from ${importErrors} where ${importErrors.id} in (
        select ${importErrors.id} from ${importErrors} where ${importErrors.jobId} = ${jobId}
        order by ${importErrors.row}, ${importErrors.id} offset ${IMPORT_KEPT_ERRORS})`);
  });
}

/** Ends a job: DONE, or FAILED with the reason; answers its counts and errors found for the audit trail. */
export async function finishJob(q: Queryable, jobId: string, failure: string | null) {
  const [row] = await q
    .update(importJobs)
    .set({ status: failure ? 'FAILED' : 'DONE', message: failure })
    .where(eq(importJobs.id, jobId))
    .returning();
  await importChanged(q, jobEvent(row));
  return { counts: countsOf(row), errorsTotal: row.errorsFound };
}

/** A job's event (modules/events): its status and counts, for the Import screen's progress. */
const jobEvent = (row: typeof importJobs.$inferSelect) => ({
  id: row.id,
  status: row.status as ImportStatus,
  kind: row.kind as ImportKind,
  dryRun: row.dryRun,
  counts: countsOf(row),
});

const countsOf = (row: ImportCounts): ImportCounts => ({
  read: row.read,
  created: row.created,
  updated: row.updated,
  unchanged: row.unchanged,
  conflicts: row.conflicts,
  refused: row.refused,
});

/** A job's kept row errors in the file's order (a row's own as they were found): a page of them, or all. */
export async function keptErrors(
  q: Queryable,
  jobId: string,
  page?: { offset: number; limit: number },
): Promise<ImportRowError[]> {
  const query = q
    .select({ row: importErrors.row, column: importErrors.column, message: importErrors.message })
    .from(importErrors)
    .where(eq(importErrors.jobId, jobId))
    .orderBy(asc(importErrors.row), asc(importErrors.id));
  return page ? query.limit(page.limit).offset(page.offset) : query;
}

/**
 * `import/fetch/:id`: the job with its counts and a page of its kept row errors, or undefined. A RUNNING job whose
 * lock nobody holds lost its server: it is answered FAILED with IMPORT_MSG.stopped. Its row is left as it is: whole
 * batches are written, and the same file sent again completes it.
 */
export async function jobView(
  q: Queryable,
  jobId: string,
  page: { offset: number; limit: number },
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
      errorsFound: importJobs.errorsFound,
      message: importJobs.message,
      createdAt: importJobs.createdAt,
      alive: sql<boolean>`${runnerAlive}`,
    })
    .from(importJobs)
    .where(eq(importJobs.id, jobId));
  if (!row) return undefined;
  const [[kept], errors] = await Promise.all([
    q.select({ count: count() }).from(importErrors).where(eq(importErrors.jobId, jobId)),
    keptErrors(q, jobId, page),
  ]);
  const lost = row.status === 'RUNNING' && !row.alive;
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
    errorsTotal: row.errorsFound,
    errorsKept: kept.count,
    message: lost ? IMPORT_MSG.stopped : row.message,
    createdAt: row.createdAt.toISOString(),
  };
}
