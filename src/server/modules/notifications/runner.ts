import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type {
  NotificationChannel,
  NotificationEvent,
  NotificationLanguage,
} from '../../../shared/constants/notifications';
import type { NotifyConfig } from '../../config';
import type { Db, Queryable } from '../../db/open';
import {
  type JobLog as LockedJobLog,
  RUNNER_CLASS,
  type RunnerKey,
  type RunnerLocks,
  startLockedJob,
} from '../../db/runner-lock';
import { notificationAttempts, notifications, webhookEndpoints } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { type ChannelLog, channelsOf, type Outgoing, type Send, Undeliverable } from './channels';
import { announceStatements, lastEndedMonth } from './statements';
import type { TemplateData } from './templates';

/**
 * The delivery job. One server at a time runs it, under its runner lock (db/runner-lock.ts), so no two servers send
 * the same row at once. The holder sends the due rows (PENDING, next_at passed) a batch at a time, each row's
 * attempt recorded after it, in a transaction of its own. A server killed between sending and recording leaves the
 * row PENDING and due: the next holder (another server within FOLLOW_MS of the lock's release, or this one
 * restarted) sends it again, with the same id. So nothing is lost, and a duplicate carries its original's id.
 *
 * A failed attempt is tried again after `firstRetryMs`, then after three times the last wait (at most MAX_WAIT_MS),
 * until a day after the row was written: an attempt that fails after that ends the row FAILED. An admin's Retry now
 * makes any row due again.
 *
 * The holder also writes the statement-ready notices of a month that has ended (statements.ts), once a month.
 */

export const NOTIFICATIONS_LOCK: RunnerKey = [RUNNER_CLASS.notifications, 1];

/** A server not running the job asks for its lock this often. */
const FOLLOW_MS = 5_000;
/** Rows sent per look. */
const BATCH = 50;
/** Deliveries sent at once within a batch. */
const AT_ONCE = 8;
/** The longest wait between two attempts. */
const MAX_WAIT_MS = 6 * 3_600_000;
/** A row still undelivered this long after it was written is given up (FAILED) at its next failed attempt. */
export const GIVE_UP_MS = 24 * 3_600_000;

/** The wait after the `attempts`-th failed attempt. */
export const retryWaitMs = (firstRetryMs: number, attempts: number) =>
  Math.min(MAX_WAIT_MS, firstRetryMs * 3 ** Math.max(0, attempts - 1));

export interface JobLog extends ChannelLog, LockedJobLog {}

/** An error's text for the attempt's record, one line, at most 500 characters. */
const errorText = (error: unknown) => {
  const cause = (error as { cause?: { message?: string } })?.cause?.message;
  const text = error instanceof Error ? error.message + (cause ? `: ${cause}` : '') : String(error);
  return text.replace(/\s+/g, ' ').slice(0, 500);
};

/** Sends one row and records the attempt (and the row's new state) in one transaction. */
async function deliver(db: Db, send: Send, message: Outgoing, attempts: number, firstRetryMs: number) {
  let failure: string | null = null;
  let hopeless = false;
  try {
    await send(message);
  } catch (error) {
    failure = errorText(error);
    hopeless = error instanceof Undeliverable;
  }
  const now = Date.now();
  const done = attempts + 1;
  const givenUp = failure !== null && (hopeless || now - message.createdAt.getTime() >= GIVE_UP_MS);
  await inTransaction(db, async (tx) => {
    await tx
      .insert(notificationAttempts)
      .values({ notificationId: message.id, ok: failure === null, error: failure });
    await tx
      .update(notifications)
      .set(
        failure === null
          ? { status: 'SENT', attempts: done, sentAt: new Date(now), nextAt: null, lastError: null }
          : {
              status: givenUp ? 'FAILED' : 'PENDING',
              attempts: done,
              lastError: failure,
              nextAt: givenUp ? null : new Date(now + retryWaitMs(firstRetryMs, done)),
            },
      )
      .where(eq(notifications.id, message.id));
  });
}

/** One look: sends every due row, a batch at a time, until none is due or `signal` aborts. Answers how many. */
export async function deliverDue(db: Db, send: Send, opts: { firstRetryMs: number; signal?: AbortSignal }) {
  let sent = 0;
  for (;;) {
    opts.signal?.throwIfAborted();
    const due = await db
      .select({
        id: notifications.id,
        event: notifications.event,
        channel: notifications.channel,
        recipient: notifications.recipient,
        language: notifications.language,
        data: notifications.data,
        createdAt: notifications.createdAt,
        attempts: notifications.attempts,
        secret: sql<string | null>`(select ${webhookEndpoints.secret} from ${webhookEndpoints}
          where ${webhookEndpoints.id} = ${notifications.endpointId} and ${webhookEndpoints.deletedAt} is null)`,
      })
      .from(notifications)
      .where(and(eq(notifications.status, 'PENDING'), lte(notifications.nextAt, sql`now()`)))
      .orderBy(asc(notifications.nextAt))
      .limit(BATCH);
    if (due.length === 0) return sent;
    for (let at = 0; at < due.length; at += AT_ONCE) {
      opts.signal?.throwIfAborted();
      await Promise.all(
        due.slice(at, at + AT_ONCE).map((row) =>
          deliver(
            db,
            send,
            {
              ...row,
              event: row.event as NotificationEvent,
              channel: row.channel as NotificationChannel,
              language: row.language as NotificationLanguage,
              data: row.data as TemplateData,
            },
            row.attempts,
            opts.firstRetryMs,
          ),
        ),
      );
    }
    sent += due.length;
  }
}

/**
 * Starts the delivery job in this server (see above): every server asks for the lock every FOLLOW_MS; the holder
 * looks for due rows every `intervalMs` and keeps the lock while it lives. Returns a stop function.
 */
export function startNotificationRunner(
  db: Db,
  config: NotifyConfig,
  opts: { runners: RunnerLocks; log: JobLog },
): () => Promise<void> {
  const channels = channelsOf(config, opts.log);
  /** The month whose statement notices this server wrote or found written: asked for again at the next month. */
  let announced: string | null = null;
  const stop = startLockedJob(opts.runners, NOTIFICATIONS_LOCK, {
    name: 'the notification runner',
    log: opts.log,
    run: async (lock) => {
      const now = new Date();
      const month = lastEndedMonth(now);
      if (announced !== month) {
        const written = await announceStatements(db, now);
        if (written > 0) opts.log.info({ month, written }, 'Statement-ready notices written');
        announced = month;
      }
      await deliverDue(db, channels.send, { firstRetryMs: config.firstRetryMs, signal: lock.lost });
    },
    nextLookMs: (holding) => (holding ? config.intervalMs : Math.min(FOLLOW_MS, config.intervalMs * 5)),
  });
  return async () => {
    await stop();
    channels.close();
  };
}

/** `notifications/retry/:id`: the row is due now (again), whatever its state but SENT (in `q`'s transaction). */
export async function retryNow(q: Queryable, id: string): Promise<'queued' | 'sent' | 'missing'> {
  return inTransaction(q, async (tx) => {
    const [row] = await tx
      .select({ status: notifications.status })
      .from(notifications)
      .where(eq(notifications.id, id))
      .for('update');
    if (!row) return 'missing';
    if (row.status === 'SENT') return 'sent';
    await tx
      .update(notifications)
      .set({ status: 'PENDING', nextAt: sql`now()` })
      .where(eq(notifications.id, id));
    return 'queued';
  });
}
