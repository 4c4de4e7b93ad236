import { and, count, eq, gt, min } from 'drizzle-orm';
import { LOGIN_THROTTLE } from '../../../shared/rules';
import type { Queryable as Db } from '../../db/open';
import { loginFailures } from '../../db/schema';

const windowMs = LOGIN_THROTTLE.windowMinutes * 60_000;
const key = (userName: string) => userName.trim().toLowerCase();

/** Minutes until the user name may try again, or 0 when it is not locked. */
export async function lockedForMinutes(db: Db, userName: string, now = new Date()): Promise<number> {
  const since = new Date(now.getTime() - windowMs);
  const [row] = await db
    .select({ failures: count(), oldest: min(loginFailures.failedAt) })
    .from(loginFailures)
    .where(and(eq(loginFailures.userName, key(userName)), gt(loginFailures.failedAt, since)));
  if (!row || row.failures < LOGIN_THROTTLE.maxFailures || !row.oldest) return 0;
  const oldest = row.oldest instanceof Date ? row.oldest : new Date(row.oldest);
  return Math.max(1, Math.ceil((oldest.getTime() + windowMs - now.getTime()) / 60_000));
}

export const recordFailure = (db: Db, userName: string) =>
  db.insert(loginFailures).values({ userName: key(userName) });

export const clearFailures = (db: Db, userName: string) =>
  db.delete(loginFailures).where(eq(loginFailures.userName, key(userName)));
