import { randomBytes } from 'node:crypto';
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { Queryable as Db } from '../../db/open';
import { sessions } from '../../db/schema';
import { hashToken } from '../../http/session-token';

// The lookup lives with the session guard in http/; issuing and revoking sessions is this module's.
export {
  hashToken,
  lookupSession,
  type SessionLookup,
  type SessionUser,
  type UserRow,
} from '../../http/session-token';

/**
 * Issues an opaque random token; only its hash is stored. Also sweeps this user's expired sessions.
 * `carryWritePosition` (with a read replica): the new session starts at the furthest WAL position of the user's
 * other sessions, so a sign-in on a second device reads that person's latest writes too (http/reader.ts).
 */
export async function issueSession(
  db: Db,
  userId: string,
  ttlHours: number,
  { carryWritePosition = false }: { carryWritePosition?: boolean } = {},
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, now)));
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(now.getTime() + ttlHours * 3_600_000),
    ...(carryWritePosition
      ? {
          walLsn: sql`(select max(${sessions.walLsn}) from ${sessions} where ${sessions.userId} = ${userId})`,
        }
      : {}),
  });
  return token;
}

export const revokeSession = (db: Db, tokenHash: string) =>
  db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));

/** Ends every session of the user except the one given (after a password change). */
export const revokeOtherSessions = (db: Db, userId: string, keepTokenHash: string) =>
  db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)));

export const revokeAllSessions = (db: Db, userId: string) =>
  db.delete(sessions).where(eq(sessions.userId, userId));
