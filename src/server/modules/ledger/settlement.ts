import { randomUUID } from 'node:crypto';
import { and, asc, eq, lt, or, sql } from 'drizzle-orm';
import { paiseToRupees } from '../../../shared/money';
import type { SettleResult } from '../../../shared/wire';
import { DEFAULT_TDS, type TdsConfig } from '../../config';
import type { Db, Queryable } from '../../db/open';
import { jobLeases, postings } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { type Actor, auditRecorder, SYSTEM } from '../audit/index';
import { lockWallets, type PostingDraft, writePostings } from './ledger';
import { withholdTds } from './tds';

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
  /** Section 194H's settings (modules/ledger/tds.ts); the defaults when not given. */
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

/**
 * Moves one user's unsettled commissions from clearing to available: for each, a DEBIT of clearing and a CREDIT
 * of available (status SETTLED) pointing at the commission. The wallet is locked before the commissions are
 * read, so a reversal of the same sale waits and then sees them settled (and debits available instead).
 */
async function settleUser(db: Db, ledgerKey: Buffer, userId: string, opts: SettleOptions) {
  const audit = auditRecorder(opts.actor ?? SYSTEM, opts.ip ?? null, 'wallet.settle', 'wallet');
  let count = 0;
  let paise = 0n;
  for (;;) {
    const batch = await inTransaction(db, async (tx) => {
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
      return { count: due.length, paise };
    });
    count += batch.count;
    paise += batch.paise;
    if (batch.count < BATCH) return { count, paise };
  }
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
  let settled = 0;
  let paise = 0n;
  let users = 0;
  for (const userId of userIds) {
    const done = await settleUser(db, ledgerKey, userId, opts);
    settled += done.count;
    paise += done.paise;
    if (done.count > 0) users++;
  }
  return { settled, amount: paiseToRupees(paise), users };
}

const LEASE = 'settlement';
const LEASE_MS = 5 * 60_000;

/**
 * One run of the settlement job: takes the job's lease (a row that only one server can hold until it
 * expires, so several servers sharing one PostgreSQL never run it at once), settles every commission older
 * than the delay, and hands the lease back. Returns null when another server holds the lease.
 */
export async function runSettlementJob(
  db: Db,
  ledgerKey: Buffer,
  opts: { delayHours: number; holder: string; now?: Date; tds?: TdsConfig },
): Promise<SettleResult | null> {
  const now = opts.now ?? new Date();
  const [lease] = await db
    .insert(jobLeases)
    .values({ name: LEASE, holder: opts.holder, expiresAt: new Date(now.getTime() + LEASE_MS) })
    .onConflictDoUpdate({
      target: jobLeases.name,
      set: { holder: opts.holder, expiresAt: new Date(now.getTime() + LEASE_MS) },
      where: or(lt(jobLeases.expiresAt, now), eq(jobLeases.holder, opts.holder)),
    })
    .returning();
  if (!lease) return null;
  try {
    return await settle(db, ledgerKey, {
      all: true,
      dueBefore: new Date(now.getTime() - opts.delayHours * 3_600_000),
      tds: opts.tds,
    });
  } finally {
    await db
      .update(jobLeases)
      .set({ expiresAt: new Date(0), lastRunAt: new Date() })
      .where(and(eq(jobLeases.name, LEASE), eq(jobLeases.holder, opts.holder)));
  }
}

/** Starts the job in this server: shortly after start, then every `intervalMs`. Returns a stop function. */
export function startSettlementJob(
  db: Db,
  ledgerKey: Buffer,
  opts: {
    delayHours: number;
    intervalMs: number;
    tds?: TdsConfig;
    log: { error(obj: unknown, msg: string): void };
  },
): () => Promise<void> {
  const holder = randomUUID();
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    running = runSettlementJob(db, ledgerKey, { delayHours: opts.delayHours, holder, tds: opts.tds }).catch(
      (error) => opts.log.error({ err: error }, 'settlement job failed'),
    );
  };
  const first = setTimeout(tick, Math.min(5_000, opts.intervalMs));
  const every = setInterval(tick, opts.intervalMs);
  first.unref();
  every.unref();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(every);
    await running;
  };
}
