import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { LOGIN_THROTTLE } from '../../../shared/rules';
import type { Queryable as Db } from '../../db/open';
import { loginFailures } from '../../db/schema';
import { HttpError } from '../../http/errors';
import { pruneRateLimitHits } from '../../http/rate-limit';

const windowMs = LOGIN_THROTTLE.windowMinutes * 60_000;

/**
 * The counter key of a sign-in name: the user's id when the name (user name or mobile number) belongs to
 * someone, so every name of one user shares one counter; otherwise the name itself, so guessing at unknown
 * names is throttled the same way and a 429 reveals nothing.
 */
export const accountKey = (user: { id: string } | undefined, typedName: string) =>
  user ? user.id : `name:${typedName.trim().toLowerCase()}`;

/**
 * Minutes until this address may try a password on this account again, or 0. The address's own failures lock
 * it out first (`maxFailures`); the account locks for every address only after `maxAccountFailures` from all
 * of them, so someone guessing from elsewhere cannot cheaply lock the real user out.
 */
export async function lockedForMinutes(
  db: Db,
  account: string,
  ip: string,
  now = new Date(),
): Promise<number> {
  const since = new Date(now.getTime() - windowMs);
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      fromAddress: sql<number>`(count(*) filter (where ${loginFailures.ip} = ${ip}))::int`,
      oldest: sql<string | null>`min(${loginFailures.failedAt})`,
      oldestFromAddress: sql<
        string | null
      >`min(${loginFailures.failedAt}) filter (where ${loginFailures.ip} = ${ip})`,
    })
    .from(loginFailures)
    .where(and(eq(loginFailures.account, account), gt(loginFailures.failedAt, since)));
  if (!row) return 0;
  let until = 0;
  if (row.fromAddress >= LOGIN_THROTTLE.maxFailures && row.oldestFromAddress)
    until = new Date(row.oldestFromAddress).getTime() + windowMs;
  if (row.total >= LOGIN_THROTTLE.maxAccountFailures && row.oldest)
    until = Math.max(until, new Date(row.oldest).getTime() + windowMs);
  if (until === 0) return 0;
  return Math.max(1, Math.ceil((until - now.getTime()) / 60_000));
}

/** A lock-out's refusal: 429 with its message and when to try again. */
export const tooMany = (message: string, minutes: number) =>
  new HttpError(429, message, undefined, { 'retry-after': String(minutes * 60) });

export const recordFailure = (db: Db, account: string, ip: string) =>
  db.insert(loginFailures).values({ account, ip });

/** A right password from an address forgives that address's failures only, never another address's. */
export const clearFailures = (db: Db, account: string, ip: string) =>
  db.delete(loginFailures).where(and(eq(loginFailures.account, account), eq(loginFailures.ip, ip)));

/** Deletes failures older than the window: they no longer count, and the table must not grow without bound. */
export const pruneFailures = (db: Db, now = new Date()) =>
  db.delete(loginFailures).where(lt(loginFailures.failedAt, new Date(now.getTime() - windowMs)));

const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Prunes the failure table and the per-address limits' counters (http/rate-limit.ts) when the app is ready and
 * every ten minutes while it runs: one timer for every throttle's table.
 */
export const throttlePruning = fp(
  async (app: FastifyInstance) => {
    let timer: NodeJS.Timeout | undefined;
    const prune = () =>
      Promise.all([
        pruneFailures(app.db).catch((error: unknown) =>
          app.log.warn({ err: error }, 'pruning login failures failed'),
        ),
        pruneRateLimitHits(app.db).catch((error: unknown) =>
          app.log.warn({ err: error }, 'pruning rate-limit counters failed'),
        ),
      ]);
    app.addHook('onReady', async () => {
      await prune();
      timer = setInterval(prune, PRUNE_EVERY_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
    });
  },
  { name: 'throttle-pruning' },
);
