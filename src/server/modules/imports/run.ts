import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  IMPORT_MSG,
  IMPORT_USER_TYPE,
  type ImportCounts,
  type ImportKind,
  type ImportMode,
  type ImportRowError,
} from '../../../shared/schemas/imports';
import { LOCATION_MSG } from '../../../shared/schemas/locations';
import type { Config } from '../../config';
import { Conflict, isUniqueViolation } from '../../db/errors';
import { saveNamed } from '../../db/named';
import type { Db, Tx } from '../../db/open';
import type { HeldLock } from '../../db/runner-lock';
import { districts, states, tehsils } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { HttpError } from '../../http/errors';
import type { PersonalDataCipher } from '../../security/personal-data';
import {
  createPeople,
  hashPassword,
  type PersonDraft,
  type peopleService,
  type SessionUser,
} from '../account/index';
import { type Actor, auditRecorder } from '../audit/index';
import { readStoredFile, writeFileBytes } from '../files/index';
import { notify } from '../notifications/index';
import { type CsvRow, importRows } from './file';
import { finishJob, recordProgress } from './jobs';
import {
  duplicateFinder,
  type Judged,
  judgeLocations,
  judgePeople,
  type LocationDraft,
  type Update,
} from './judge';

/**
 * Rows per batch (each batch is one transaction), and a seam for tests: called after each batch has committed;
 * a throw there stops the job as a killed server would, after whole batches.
 */
export const importSettings: {
  batchSize: number;
  /** Batches of one job under way at once (the database's index upkeep then uses more than one core). */
  parallel: number;
  afterBatch?: (jobId: string, batch: number) => void | Promise<void>;
} = { batchSize: 500, parallel: 2 };

/** Rows per batch at most on a pool of one connection (the embedded engine). */
const ONE_CONNECTION_BATCH = 100;

/**
 * The keys a batch writes under (a person's mobile and user name, one namespace; a location's name under its
 * parent), as they are locked: a batch that writes takes a transaction-level advisory lock on each, in one order
 * (by hash). Two batches with a key in common, of one import or of two overlapping ones, judge and write one after
 * the other, so each person is created once and the later batch sees it as unchanged; batches with none in
 * common run side by side.
 */
function batchKeys(kind: ImportKind, rows: CsvRow[]) {
  const lower = (s: string | undefined) => (s ?? '').trim().toLowerCase();
  return IMPORT_USER_TYPE[kind] !== undefined
    ? rows.flatMap((r) => [`person:${lower(r.cells.mobile)}`, `person:${lower(r.cells.userName)}`])
    : rows.map((r) => `${kind}:${[r.cells.state, r.cells.district, r.cells.name].map(lower).join('|')}`);
}

export interface ImportDeps {
  db: Db;
  config: Pick<Config, 'initialPassword'>;
  cipher: PersonalDataCipher;
  people: ReturnType<typeof peopleService>;
  log: FastifyBaseLogger;
  /**
   * Runs after the last row is written and before the job is marked finished: with a read replica, it records
   * the primary's position on the caller's session, so the lists they open once it is finished show its rows
   * (read-your-writes, http/reader.ts).
   */
  beforeFinish?: () => Promise<void>;
}

export interface ImportJob {
  id: string;
  /** The job's file in the file store, claimed with its size: the job writes its bytes, then reads them back. */
  fileId: string;
  kind: ImportKind;
  fileName: string;
  dryRun: boolean;
  mode: ImportMode;
  caller: SessionUser;
  actor: Actor;
  ip: string | null;
}

const zero = (): ImportCounts => ({
  read: 0,
  created: 0,
  updated: 0,
  unchanged: 0,
  conflicts: 0,
  refused: 0,
});

const LOCATION_TABLE = { states, districts, tehsils } as const;

/** Creates one location through the dialogs' own save (named.ts), or renames one (mode=update). */
async function saveLocation(tx: Tx, kind: 'states' | 'districts' | 'tehsils', draft: LocationDraft) {
  const table = LOCATION_TABLE[kind];
  const duplicate =
    kind === 'states'
      ? LOCATION_MSG.duplicateState(draft.name)
      : kind === 'districts'
        ? LOCATION_MSG.duplicateDistrict(draft.name)
        : LOCATION_MSG.duplicateTehsil(draft.name);
  await saveNamed(tx, table as typeof states, {
    id: draft.existingId,
    values: {
      name: draft.name,
      ...(kind === 'districts' ? { stateId: draft.stateId } : {}),
      ...(kind === 'tehsils' ? { stateId: draft.stateId, districtId: draft.districtId } : {}),
    } as typeof states.$inferInsert,
    parent:
      kind === 'districts'
        ? { column: districts.stateId, id: draft.stateId! }
        : kind === 'tehsils'
          ? { column: tehsils.districtId, id: draft.districtId! }
          : undefined,
    messages: { duplicate, notFound: LOCATION_MSG.stateNotFound },
  });
}

/** A batch's counts and errors from its judged rows; conflicts left out when mode=update (they are updated next). */
function tally(judged: Judged[], mode: ImportMode) {
  const counts = zero();
  const errors: ImportRowError[] = [];
  counts.read = judged.length;
  for (const j of judged) {
    if (j.outcome === 'create') counts.created++;
    else if (j.outcome === 'unchanged') counts.unchanged++;
    else if (j.outcome === 'refused') {
      counts.refused++;
      errors.push(...j.errors);
    } else if (mode === 'create') {
      counts.conflicts++;
      errors.push(...j.errors);
    }
  }
  return { counts, errors };
}

/** The file as it was received: a temporary file of the request, removed once stored. */
export interface ReceivedFile {
  path: string;
  size: number;
  discard(): Promise<void>;
}

/** A batch as it is read: its number, the rows refused before any is judged, and the rows to judge. */
interface Batch {
  no: number;
  early: Judged[];
  toJudge: CsvRow[];
}

/**
 * Runs a job under its runner lock (`lock`, taken before its row was written: jobs.ts, importLock): stores its file
 * in the file store, then reads it back as a stream, batch after batch; only the batches under way are in memory,
 * never the file's rows. Rows of the wrong shape, and rows repeating an earlier row's key, are refused as they are
 * read, in the file's order. A dry run judges every row and writes only the job's progress. A real run judges and
 * writes each batch in one transaction, under its keys' locks, with the batch's progress: a server killed
 * mid-import leaves whole batches, and running the file again finds them unchanged. A job whose lock is lost (its
 * connection ended) stops after the batches under way, as its readers already see it stopped. Ends the job DONE
 * (or FAILED) and records it in the audit trail, then gives the lock back.
 */
export async function runImport(deps: ImportDeps, job: ImportJob, file: ReceivedFile, lock: HeldLock) {
  try {
    await runUnderLock(deps, job, file, lock);
  } finally {
    await lock
      .release()
      .catch((error) => deps.log.warn({ err: error, jobId: job.id }, 'an import lock was not given back'));
  }
}

async function runUnderLock(deps: ImportDeps, job: ImportJob, file: ReceivedFile, lock: HeldLock) {
  const { db, cipher, log } = deps;
  const people = IMPORT_USER_TYPE[job.kind] !== undefined;
  const judge = (q: Db | Tx, batch: CsvRow[], lock: boolean) =>
    people
      ? judgePeople(q, job.kind, batch, lock, cipher)
      : judgeLocations(q, job.kind as 'states' | 'districts' | 'tehsils', batch, lock);
  let failure: string | null = null;
  let rows: AsyncGenerator<CsvRow> | undefined;
  try {
    // One statement a chunk, outside any transaction: the embedded engine serves others between them.
    await writeFileBytes(db, { id: job.fileId, source: file.path, size: file.size });
    await file.discard();
    rows = importRows(job.kind, readStoredFile(db, { id: job.fileId, size: file.size }));
    const duplicate = duplicateFinder(job.kind);
    // INITIAL_PASSWORD, hashed once for the whole file (each dialog create hashes it once too).
    const passwordHash = people && !job.dryRun ? await hashPassword(deps.config.initialPassword) : '';
    // With one connection (the embedded engine), a batch's statements are what every other request waits behind:
    // smaller batches there keep that wait short.
    const onePool = (db.$client.options.max ?? 1) <= 1;
    const size = Math.max(
      1,
      onePool ? Math.min(importSettings.batchSize, ONE_CONNECTION_BATCH) : importSettings.batchSize,
    );
    let batches = 0;
    const readBatch = async (): Promise<Batch | undefined> => {
      const batch: Batch = { no: batches + 1, early: [], toJudge: [] };
      for (let n = 0; n < size; n++) {
        const next = await rows!.next();
        if (next.done) break;
        const row = next.value;
        // Refused before the database is asked: a row of the wrong shape, a key an earlier row of the file has.
        const same = row.errors ? undefined : duplicate(row);
        const refusal = row.errors ?? (same ? [same] : undefined);
        if (refusal) batch.early.push({ row: row.row, outcome: 'refused', errors: refusal });
        else batch.toJudge.push(row);
      }
      if (batch.early.length + batch.toJudge.length === 0) return undefined;
      batches++;
      return batch;
    };
    // Batches are read one after the other, in the file's order, whichever worker asks.
    let reading: Promise<unknown> = Promise.resolve();
    const nextBatch = () => {
      const batch = reading.then(readBatch);
      reading = batch.catch(() => {});
      return batch;
    };
    const runBatch = async ({ no, early, toJudge }: Batch) => {
      if (job.dryRun) {
        const judged = [...early, ...(await judge(db, toJudge, false))];
        const { counts, errors } = tally(judged, job.mode);
        await recordProgress(db, job.id, counts, errors);
      } else {
        const judged = await writeBatch(deps, job, toJudge, early, judge, passwordHash);
        if (job.mode === 'update') await updateConflicts(deps, job, judged);
      }
      await importSettings.afterBatch?.(job.id, no);
    };
    // A few batches at once, taken in file order; the first failure stops the others from taking more.
    let stopped: unknown;
    const worker = async () => {
      while (stopped === undefined) {
        try {
          lock.lost.throwIfAborted();
          const batch = await nextBatch();
          if (!batch) return;
          await runBatch(batch);
        } catch (error) {
          stopped ??= error;
        }
      }
    };
    // No more batches at once than the pool has connections: on the embedded engine's one, a second batch in line
    // gains nothing and every other request (a /healthz too) would wait behind two batches' statements.
    const parallel = onePool ? 1 : Math.max(1, importSettings.parallel);
    await Promise.all(Array.from({ length: parallel }, worker));
    if (stopped !== undefined) throw stopped;
  } catch (error) {
    // Never the rows themselves: they may hold Aadhar numbers.
    log.error({ err: error, jobId: job.id, kind: job.kind }, 'an import stopped');
    failure = IMPORT_MSG.interrupted;
  } finally {
    // A job stopped before the end: the rest of its file is not read.
    await rows?.return(undefined).catch(() => {});
    await file.discard().catch(() => {});
  }
  try {
    await deps.beforeFinish?.();
  } catch (error) {
    log.error({ err: error, jobId: job.id }, "could not record the import's write position on the session");
  }
  try {
    await finish(deps, job, failure);
  } catch (error) {
    // The database is away (a failover): the job stays RUNNING with its lock given back, which its readers
    // answer as stopped.
    log.error({ err: error, jobId: job.id }, 'an import could not be marked finished');
  }
}

/** Ends the job DONE (or FAILED with `failure`) and records it in the audit trail, in one transaction. */
async function finish(deps: ImportDeps, job: ImportJob, failure: string | null) {
  await inTransaction(deps.db, async (tx) => {
    const { counts, errorsTotal } = await finishJob(tx, job.id, failure);
    await auditRecorder(
      job.actor,
      job.ip,
      'import.run',
      'import',
    )(tx, {
      entityId: job.id,
      after: {
        jobId: job.id,
        kind: job.kind,
        fileName: job.fileName,
        dryRun: job.dryRun,
        mode: job.mode,
        status: failure ? 'FAILED' : 'DONE',
        counts,
        errorsTotal,
      },
    });
    await notify(tx, 'import.finished', {
      to: [{ userId: job.caller.id }],
      data: {
        jobId: job.id,
        fileName: job.fileName,
        status: failure ? 'FAILED' : 'DONE',
        created: counts.created,
        updated: counts.updated,
        refused: counts.refused,
      },
    });
  });
}

/**
 * One batch in one transaction: judged again under its keys' locks (another import, or a dialog, may have
 * created some of its keys meanwhile), its new rows written, its progress recorded. A key taken by a dialog
 * between the judgement and the write aborts the batch, which then runs again and finds it.
 */
async function writeBatch(
  deps: ImportDeps,
  job: ImportJob,
  rows: CsvRow[],
  early: Judged[],
  judge: (q: Tx, batch: CsvRow[], lock: boolean) => Promise<Judged[]>,
  passwordHash: string,
): Promise<Judged[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(deps.db, async (tx) => {
        const keys = batchKeys(job.kind, rows);
        await tx.execute(sql`select pg_advisory_xact_lock(h)
          from (select distinct hashtext(k) as h from unnest(${sql.param(keys)}::text[]) as k order by 1) as locks`);
        const judged = [...early, ...(await judge(tx, rows, true))];
        const drafts: PersonDraft[] = [];
        for (const j of judged) {
          if (j.outcome !== 'create') continue;
          if ('person' in j.create) drafts.push(j.create.person);
          else await saveLocation(tx, job.kind as 'states', j.create.location);
        }
        await createPeople(tx, deps.cipher, passwordHash, drafts);
        const { counts, errors } = tally(judged, job.mode);
        await recordProgress(tx, job.id, counts, errors);
        return judged;
      });
    } catch (error) {
      if (attempt >= 3 || !(isUniqueViolation(error) || error instanceof Conflict)) throw error;
    }
  }
}

/** mode=update: each conflicting row through the dialog's own update (people) or save (locations). */
async function updateConflicts(deps: ImportDeps, job: ImportJob, judged: Judged[]) {
  const counts = zero();
  const errors: ImportRowError[] = [];
  for (const j of judged) {
    if (j.outcome !== 'conflict') continue;
    const update: Update = j.update;
    try {
      if ('personId' in update) await deps.people.update(job.caller, update.personId, update.body);
      else await inTransaction(deps.db, (tx) => saveLocation(tx, job.kind as 'states', update.location));
      counts.updated++;
    } catch (error) {
      if (!(error instanceof HttpError) && !(error instanceof Conflict)) throw error;
      counts.refused++;
      const param = error instanceof HttpError ? error.errors?.[0]?.param : undefined;
      errors.push({ row: j.row, column: param ?? j.errors[0]?.column ?? '', message: error.message });
    }
  }
  if (counts.updated || counts.refused) await recordProgress(deps.db, job.id, counts, errors);
}
