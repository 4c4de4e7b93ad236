import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { paiseToRupees } from '../../../shared/money';
import type { SettlePreview } from '../../../shared/schemas/books';
import type { SettleResult } from '../../../shared/wire';
import { DEFAULT_TDS, type TdsConfig } from '../../config';
import type { Db, Queryable, Tx } from '../../db/open';
import {
  type JobLog,
  RUNNER_CLASS,
  type RunnerKey,
  type RunnerLocks,
  startLockedJob,
} from '../../db/runner-lock';
import { postings, users } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { type Actor, auditRecorder, SYSTEM } from '../audit/index';
import { commissionsSettled } from '../events/index';
import { notify } from '../notifications/index';
import { lockWallets, type PostingDraft, writePostings } from './ledger';
import { withholdTds } from './withholding';

export interface SettleOptions {
  /** Only commissions credited before this (the job). */
  dueBefore?: Date;
  /** The admin settling by hand (the postings' createdBy); none for the job. */
  createdBy?: string | null;
  /** Who the audit trail names: the admin, or the system for the job (the default). */
  actor?: Actor;
  ip?: string | null;
  /** The settlement's time (its postings' and the financial year it counts in); now by default. */
  now?: Date;
  /** Section 194H's settings (modules/tds/tds.ts); the defaults when not given. */
  tds?: TdsConfig;
  /** The job's: aborted when its runner lock is lost, which stops the run between batches. */
  signal?: AbortSignal;
}

/** A sum of paise for a JSON record: a number while that is exact, else its digits as text. */
const paiseJson = (paise: bigint) =>
  paise <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(paise) : paise.toString();

/** Commissions settled per transaction, so a busy wallet (admin's) is never locked for long. */
const BATCH = 500;

/** Commission postings still in clearing: neither settled nor reversed (optionally: credited before `dueBefore`). */
const unsettled = (dueBefore?: Date) =>
  and(
    eq(postings.kind, 'COMMISSION'),
    dueBefore ? lt(postings.createdAt, dueBefore) : undefined,
    sql`not exists (select 1 from ${postings} as later where later.ref_posting_id = ${postings.id} and later.kind in ('SETTLEMENT', 'REVERSAL'))`,
  );

/** Users with commissions to settle. */
async function usersToSettle(db: Queryable, dueBefore?: Date): Promise<string[]> {
  const rows = await db
    .selectDistinct({ userId: postings.userId })
    .from(postings)
    .where(unsettled(dueBefore))
    .orderBy(postings.userId);
  return rows.map((r) => r.userId);
}

/** What one batch (or a whole user, or a whole run) settled: commissions, their paise, and the tax withheld. */
interface Settled {
  count: number;
  paise: bigint;
  tds: bigint;
}

/**
 * Moves up to BATCH of one user's unsettled commissions from clearing to available, in the caller's transaction:
 * for each, a DEBIT of clearing and a CREDIT of available (status SETTLED) pointing at the commission, then the
 * tax section 194H says is due. The wallet is locked before the commissions are read, so a reversal of the same
 * sale waits and then sees them settled (and debits available instead).
 */
async function settleBatch(tx: Tx, ledgerKey: Buffer, userId: string, opts: SettleOptions): Promise<Settled> {
  const audit = auditRecorder(opts.actor ?? SYSTEM, opts.ip ?? null, 'wallet.settle', 'wallet');
  const locked = await lockWallets(tx, [userId]);
  const due = await tx
    .select()
    .from(postings)
    .where(and(eq(postings.userId, userId), unsettled(opts.dueBefore)))
    .orderBy(asc(postings.walletSeq))
    .limit(BATCH);
  const drafts = due.flatMap((c): PostingDraft[] => {
    const common = {
      userId,
      kind: 'SETTLEMENT' as const,
      status: 'SETTLED' as const,
      amountPaise: c.amountPaise,
      boughtProductId: c.boughtProductId,
      tier: c.tier as PostingDraft['tier'],
      refPostingId: c.id,
    };
    return [
      { ...common, transactionType: 'DEBIT', balanceType: 'CLEARING' },
      { ...common, transactionType: 'CREDIT', balanceType: 'AVAILABLE' },
    ];
  });
  const paise = due.reduce((sum, c) => sum + BigInt(c.amountPaise), 0n);
  const now = opts.now ?? new Date();
  await writePostings(tx, locked, drafts, { ledgerKey, createdBy: opts.createdBy, now });
  // Section 194H: the tax on what this settlement made available, when the year's total passes the threshold.
  const tds =
    due.length > 0
      ? await withholdTds(tx, locked, userId, {
          ledgerKey,
          createdBy: opts.createdBy,
          now,
          tds: opts.tds ?? DEFAULT_TDS,
        })
      : 0n;
  // The tier user hears that its commission settled (an e-mail; the admin's wallet tells nobody).
  if (due.length > 0)
    await notify(tx, 'settlement', {
      to: [{ userId }],
      data: { amount: paiseToRupees(paise), tds: paiseToRupees(tds) },
    });
  if (due.length > 0)
    await audit(tx, {
      entityId: userId,
      after: {
        settled: due.length,
        amountPaise: paiseJson(paise),
        ...(tds > 0n ? { tdsPaise: paiseJson(tds) } : {}),
      },
    });
  if (due.length > 0) {
    const [settled] = await tx.select({ path: users.path }).from(users).where(eq(users.id, userId));
    await commissionsSettled(tx, { id: userId, path: settled?.path ?? null }, paise);
  }
  return { count: due.length, paise, tds };
}

/** Settles one user's commissions, a batch per transaction, so a busy wallet (admin's) is never locked for long. */
async function settleUser(db: Db, ledgerKey: Buffer, userId: string, opts: SettleOptions): Promise<Settled> {
  const done: Settled = { count: 0, paise: 0n, tds: 0n };
  for (;;) {
    opts.signal?.throwIfAborted();
    const batch = await inTransaction(db, (tx) => settleBatch(tx, ledgerKey, userId, opts));
    done.count += batch.count;
    done.paise += batch.paise;
    done.tds += batch.tds;
    if (batch.count < BATCH) return done;
  }
}

/** Thrown to roll a preview's transaction back, carrying what it would have settled. */
class Rehearsed extends Error {
  constructor(readonly settled: Settled) {
    super('settlement preview rolled back');
  }
}

/**
 * What settling one user would do, without doing it: the very batches settleUser runs, in one transaction that is
 * then rolled back. The rules (which commissions, the tax and its catch-up) are the settlement's own code, not a
 * second copy of them; nothing of it stays, not even its audit rows.
 */
async function rehearseUser(
  db: Db,
  ledgerKey: Buffer,
  userId: string,
  opts: SettleOptions,
): Promise<Settled> {
  try {
    await inTransaction(db, async (tx) => {
      const done: Settled = { count: 0, paise: 0n, tds: 0n };
      for (;;) {
        const batch = await settleBatch(tx, ledgerKey, userId, opts);
        done.count += batch.count;
        done.paise += batch.paise;
        done.tds += batch.tds;
        if (batch.count < BATCH) throw new Rehearsed(done);
      }
    });
  } catch (error) {
    if (error instanceof Rehearsed) return error.settled;
    throw error;
  }
  throw new Error('unreachable: a rehearsal always rolls back');
}

/** A settlement's figures for the wire: commissions, rupees, users with something settled, the tax withheld. */
function summary(perUser: Settled[]): SettlePreview {
  let settled = 0;
  let paise = 0n;
  let tds = 0n;
  let users = 0;
  for (const done of perUser) {
    settled += done.count;
    paise += done.paise;
    tds += done.tds;
    if (done.count > 0) users++;
  }
  return { settled, amount: paiseToRupees(paise), users, tds: paiseToRupees(tds) };
}

/**
 * Settles one user (`userId`) or, asked explicitly (`all`), everyone; with `dueBefore`, only commissions credited
 * before it (the job). Each user is settled in transactions of its own, so one busy wallet never holds up the others.
 */
export async function settle(
  db: Db,
  ledgerKey: Buffer,
  opts: SettleOptions & ({ userId: string } | { all: true }),
): Promise<SettleResult> {
  const userIds = 'userId' in opts ? [opts.userId] : await usersToSettle(db, opts.dueBefore);
  const perUser: Settled[] = [];
  for (const userId of userIds) perUser.push(await settleUser(db, ledgerKey, userId, opts));
  const { settled, amount, users } = summary(perUser);
  return { settled, amount, users };
}

/**
 * What `settle` with the same options would move now, and the tax it would withhold, without moving anything
 * (the Books screen's preview of "settle all"): each user's settlement is run in a transaction that is rolled
 * back. Each user's wallet is locked only while its own rehearsal runs, as the settlement itself does.
 */
export async function previewSettle(
  db: Db,
  ledgerKey: Buffer,
  opts: SettleOptions & ({ userId: string } | { all: true }),
): Promise<SettlePreview> {
  const userIds = 'userId' in opts ? [opts.userId] : await usersToSettle(db, opts.dueBefore);
  const perUser: Settled[] = [];
  for (const userId of userIds) perUser.push(await rehearseUser(db, ledgerKey, userId, opts));
  return summary(perUser);
}

/** The settlement job's runner lock (db/runner-lock.ts): the server holding it runs the job. */
export const SETTLEMENT_LOCK: RunnerKey = [RUNNER_CLASS.settlement, 1];
/**
 * A server that does not run the job asks for its lock this often, so the job of a server that died or lost its
 * connection is taken up within this of the lock's release (PostgreSQL's, when it sees the session end).
 */
const FOLLOW_MS = 5_000;

export type { JobLog } from '../../db/runner-lock';

interface JobOptions {
  delayHours: number;
  /** The run's time, which decides what is due; now by default. */
  now?: Date;
  tds?: TdsConfig;
}

/** One run: every commission older than the delay settled; stops between batches once `signal` aborts. */
function settleDue(db: Db, ledgerKey: Buffer, opts: JobOptions & { signal?: AbortSignal }) {
  const now = opts.now ?? new Date();
  return settle(db, ledgerKey, {
    all: true,
    dueBefore: new Date(now.getTime() - opts.delayHours * 3_600_000),
    tds: opts.tds,
    signal: opts.signal,
  });
}

/**
 * One run of the settlement job under its runner lock: settles every commission older than the delay, and gives the
 * lock back. Returns null when another server holds the lock (or this one, running the job already).
 */
export async function runSettlementJob(
  db: Db,
  ledgerKey: Buffer,
  runners: RunnerLocks,
  opts: JobOptions,
): Promise<SettleResult | null> {
  const lock = await runners.tryTake(SETTLEMENT_LOCK);
  if (!lock) return null;
  try {
    return await settleDue(db, ledgerKey, { ...opts, signal: lock.lost });
  } finally {
    await lock.release();
  }
}

/**
 * Starts the job in this server. Every server asks for the job's runner lock every FOLLOW_MS until it gets it; the
 * server holding it runs the job at once and then every `intervalMs`, and keeps the lock while it lives. So one
 * server runs it at a time; when that server dies or loses its connection (a failover), its lock goes with its
 * database session and another server (or the same one, connected again) takes the job up within FOLLOW_MS of
 * that, running it at once. A run stopped by a lost lock stops between batches; settling is safe to repeat (each
 * wallet is locked, and only unsettled commissions move). Returns a stop function, which gives the lock back.
 */
export function startSettlementJob(
  db: Db,
  ledgerKey: Buffer,
  opts: {
    runners: RunnerLocks;
    delayHours: number;
    intervalMs: number;
    tds?: TdsConfig;
    log: JobLog;
  },
): () => Promise<void> {
  /** When this server last began a run, while it holds the lock. */
  let ranAt = Number.NEGATIVE_INFINITY;
  return startLockedJob(opts.runners, SETTLEMENT_LOCK, {
    name: 'the settlement job',
    log: opts.log,
    onTaken: () => {
      ranAt = Number.NEGATIVE_INFINITY;
    },
    run: async (lock) => {
      if (Date.now() - ranAt < opts.intervalMs) return;
      ranAt = Date.now();
      await settleDue(db, ledgerKey, { delayHours: opts.delayHours, tds: opts.tds, signal: lock.lost });
    },
    nextLookMs: () => Math.min(FOLLOW_MS, opts.intervalMs),
  });
}
