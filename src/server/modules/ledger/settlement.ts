import { randomUUID } from 'node:crypto';
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { paiseToRupees } from '../../../shared/money';
import type { SettlePreview } from '../../../shared/schemas/books';
import type { SettleResult } from '../../../shared/wire';
import { DEFAULT_TDS, type TdsConfig } from '../../config';
import type { Db, Queryable, Tx } from '../../db/open';
import { jobLeases, postings } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { type Actor, auditRecorder, SYSTEM } from '../audit/index';
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
  if (due.length > 0)
    await audit(tx, {
      entityId: userId,
      after: {
        settled: due.length,
        amountPaise: paiseJson(paise),
        ...(tds > 0n ? { tdsPaise: paiseJson(tds) } : {}),
      },
    });
  return { count: due.length, paise, tds };
}

/** Settles one user's commissions, a batch per transaction, so a busy wallet (admin's) is never locked for long. */
async function settleUser(db: Db, ledgerKey: Buffer, userId: string, opts: SettleOptions): Promise<Settled> {
  const done: Settled = { count: 0, paise: 0n, tds: 0n };
  for (;;) {
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

const LEASE = 'settlement';
/**
 * How long the job's lease lasts without renewal. Its holder renews it every third of that while a run lasts, so
 * only a holder that stopped (a killed server) lets it lapse, and a server waiting for it takes over soon after.
 */
export const LEASE_MS = 15_000;
const RENEW_MS = LEASE_MS / 3;
/** A waiting server asks again this long after the lease it saw expires. */
const RETRY_MARGIN_MS = 250;

/** The job's log (the app's): failures, a lease lost to another server, and the waits for a held lease. */
export interface JobLog {
  error(obj: unknown, msg: string): void;
  warn(obj: unknown, msg: string): void;
  debug(obj: unknown, msg: string): void;
}

/** The lease held by another server: when it expires (ms from now), and the last run that finished. */
interface LeaseHeld {
  expiresInMs: number;
  /** The last finished run's time (microseconds since 1970, as text), to tell a finished run from a dead holder. */
  lastRun: string | null;
}

/** The lease's last finished run, exactly (a JavaScript Date would drop PostgreSQL's microseconds). */
const LAST_RUN = sql`(extract(epoch from ${jobLeases.lastRunAt}) * 1000000)::bigint::text`;
const LEASE_ENDS = sql.raw(`now() + interval '${LEASE_MS} milliseconds'`);

/**
 * Takes the job's lease for `holder`: a row only one server can hold until it expires, so several servers sharing
 * one database never run the job at once. It is taken when it is free, has expired, or is this holder's already;
 * given `lastRun` (what a waiting server saw), only if no run has finished since, so a holder that finished and let
 * go is not taken over by a second run. Times are the database's, the one clock every server shares.
 */
export async function takeLease(
  db: Queryable,
  holder: string,
  lastRun?: string | null,
): Promise<{ taken: true } | ({ taken: false } & LeaseHeld)> {
  const unchanged =
    lastRun === undefined ? sql`true` : sql`${LAST_RUN} is not distinct from ${lastRun}::text`;
  const taken = await db.execute(
    sql`insert into ${jobLeases} (name, holder, expires_at) values (${LEASE}, ${holder}, ${LEASE_ENDS})
      on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
      where (${jobLeases.expiresAt} < now() or ${jobLeases.holder} = excluded.holder) and ${unchanged}
      returning name`,
  );
  if (taken.rows.length > 0) return { taken: true };
  const held = await db.execute<{ expiresInMs: number; lastRun: string | null }>(
    sql`select greatest(0, ceil(extract(epoch from ${jobLeases.expiresAt} - now()) * 1000))::int as "expiresInMs",
        ${LAST_RUN} as "lastRun" from ${jobLeases} where ${jobLeases.name} = ${LEASE}`,
  );
  return {
    taken: false,
    expiresInMs: held.rows[0]?.expiresInMs ?? 0,
    lastRun: held.rows[0]?.lastRun ?? null,
  };
}

/**
 * Renews `holder`'s lease every RENEW_MS until the returned function is called (which waits for a renewal under
 * way, so none lands after the lease is handed back). A renewal that finds the lease another's is logged once: the
 * run goes on, since settling is safe to repeat (each wallet is locked and only unsettled commissions move).
 */
export function keepLease(db: Queryable, holder: string, log?: JobLog): () => Promise<void> {
  let lost = false;
  let renewing: Promise<unknown> = Promise.resolve();
  const renew = async () => {
    const rows = await db
      .update(jobLeases)
      .set({ expiresAt: LEASE_ENDS })
      .where(and(eq(jobLeases.name, LEASE), eq(jobLeases.holder, holder)))
      .returning({ name: jobLeases.name });
    if (rows.length === 0 && !lost) {
      lost = true;
      log?.warn({ holder }, 'settlement lease lost to another server while this run lasts');
    }
  };
  const timer = setInterval(() => {
    renewing = renew().catch((error) => log?.error({ err: error }, 'renewing the settlement lease failed'));
  }, RENEW_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await renewing;
  };
}

/**
 * Whether the lease was left by a holder that stopped mid-run: expired, yet never handed back (a lease handed back
 * expires at 1970-01-01).
 */
async function leaseAbandoned(db: Queryable): Promise<boolean> {
  const found = await db.execute(
    sql`select 1 from ${jobLeases} where ${jobLeases.name} = ${LEASE}
      and ${jobLeases.expiresAt} < now() and ${jobLeases.expiresAt} > 'epoch'::timestamptz`,
  );
  return found.rows.length > 0;
}

/** Hands the lease back (expired at once) and records the finished run. */
async function releaseLease(db: Queryable, holder: string) {
  await db
    .update(jobLeases)
    .set({ expiresAt: new Date(0), lastRunAt: sql`now()` })
    .where(and(eq(jobLeases.name, LEASE), eq(jobLeases.holder, holder)));
}

interface JobOptions {
  delayHours: number;
  holder: string;
  /** The run's time, which decides what is due; now by default. */
  now?: Date;
  tds?: TdsConfig;
  log?: JobLog;
}

/** One attempt: the lease taken, every commission older than the delay settled, the lease handed back. */
async function attempt(
  db: Db,
  ledgerKey: Buffer,
  opts: JobOptions & { lastRun?: string | null },
): Promise<{ ran: SettleResult } | { held: LeaseHeld }> {
  const lease = await takeLease(db, opts.holder, opts.lastRun);
  if (!lease.taken) return { held: lease };
  const stopRenewing = keepLease(db, opts.holder, opts.log);
  try {
    const now = opts.now ?? new Date();
    return {
      ran: await settle(db, ledgerKey, {
        all: true,
        dueBefore: new Date(now.getTime() - opts.delayHours * 3_600_000),
        tds: opts.tds,
      }),
    };
  } finally {
    await stopRenewing();
    await releaseLease(db, opts.holder);
  }
}

/**
 * One run of the settlement job: takes the job's lease (takeLease), renews it while the run lasts, settles every
 * commission older than the delay, and hands the lease back. Returns null when another server holds the lease.
 */
export async function runSettlementJob(
  db: Db,
  ledgerKey: Buffer,
  opts: JobOptions,
): Promise<SettleResult | null> {
  const outcome = await attempt(db, ledgerKey, opts);
  return 'ran' in outcome ? outcome.ran : null;
}

/**
 * Starts the job in this server: shortly after start, then every `intervalMs`. A server that finds the lease held
 * asks again when it expires, so the lease of a holder that died (and stopped renewing it) is taken over then, not
 * at the next interval; when the holder finishes instead, the waiting server leaves the run to it. A holder that dies
 * while no server waits is found by a look at the lease every RENEW_MS, so its run is taken over within
 * LEASE_MS + RENEW_MS of its last renewal. One run at a time per server. Returns a stop function.
 */
export function startSettlementJob(
  db: Db,
  ledgerKey: Buffer,
  opts: {
    delayHours: number;
    intervalMs: number;
    tds?: TdsConfig;
    log: JobLog;
    /** This server's name on the lease; a random one by default. */
    holder?: string;
  },
): () => Promise<void> {
  const holder = opts.holder ?? randomUUID();
  let running: Promise<unknown> | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const run = (lastRun?: string | null) => {
    if (stopped || running) return;
    clearTimeout(retry);
    const job = { delayHours: opts.delayHours, holder, tds: opts.tds, log: opts.log, lastRun };
    running = attempt(db, ledgerKey, job)
      .then((outcome) => {
        // Held and not expired: ask again once it expires. Expired yet not taken: a run finished meanwhile.
        if (stopped || 'ran' in outcome || outcome.held.expiresInMs === 0) return;
        const { expiresInMs, lastRun: seen } = outcome.held;
        opts.log.debug(
          { expiresInMs },
          'settlement lease held by another server: asking again when it expires',
        );
        retry = setTimeout(() => run(seen), expiresInMs + RETRY_MARGIN_MS);
        retry.unref();
      })
      .catch((error) => opts.log.error({ err: error }, 'settlement job failed'))
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(run, Math.min(5_000, opts.intervalMs));
  const every = setInterval(run, opts.intervalMs);
  const watch = setInterval(() => {
    if (stopped || running) return;
    leaseAbandoned(db).then(
      (abandoned) => {
        if (abandoned) run();
      },
      // A database that fails is reported by the job's own runs; this look is repeated too often to log each.
      (error) => opts.log.debug({ err: error }, 'looking at the settlement lease failed'),
    );
  }, RENEW_MS);
  for (const timer of [first, every, watch]) timer.unref();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(every);
    clearInterval(watch);
    clearTimeout(retry);
    await running;
  };
}
