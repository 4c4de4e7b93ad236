import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { WireSession } from '../../../shared/wire';
import type { Queryable as Db } from '../../db/open';
import { sessions } from '../../db/schema';
import { hashToken } from '../../http/session-token';
import { sessionsEnded } from '../events/index';

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
  {
    carryWritePosition = false,
    ip = null,
    userAgent = null,
  }: { carryWritePosition?: boolean; ip?: string | null; userAgent?: string | null } = {},
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, now)));
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(now.getTime() + ttlHours * 3_600_000),
    ip,
    userAgent: userAgent?.slice(0, USER_AGENT_MAX) || null,
    ...(carryWritePosition
      ? {
          walLsn: sql`(select max(${sessions.walLsn}) from ${sessions} where ${sessions.userId} = ${userId})`,
        }
      : {}),
  });
  return token;
}

/**
 * Ending sessions: each one ended tells its own event stream, in the same transaction (modules/events), so a panel
 * signed in elsewhere goes to Login at once.
 */
async function endSessionsWhere(db: Db, where: SQL | undefined) {
  const ended = await db.delete(sessions).where(where).returning({ id: sessions.id });
  await sessionsEnded(
    db,
    ended.map((s) => s.id),
  );
  return ended;
}

export const revokeSession = (db: Db, tokenHash: string) =>
  endSessionsWhere(db, eq(sessions.tokenHash, tokenHash));

/** Ends every session of the user except the one given (after a password change). */
export const revokeOtherSessions = (db: Db, userId: string, keepTokenHash: string) =>
  endSessionsWhere(db, and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)));

export const revokeAllSessions = (db: Db, userId: string) =>
  endSessionsWhere(db, eq(sessions.userId, userId));

/** A User-Agent is kept only to be recognised in the list; a longer one is cut. */
const USER_AGENT_MAX = 300;

/** How many of a person's sessions account/sessions lists: the most recently seen. */
export const SESSIONS_LISTED = 100;

/** The person's sessions that have not expired, most recently seen first; `current` is the caller's own. */
export async function listSessions(db: Db, userId: string, currentTokenHash: string): Promise<WireSession[]> {
  const rows = await db
    .select({
      id: sessions.id,
      tokenHash: sessions.tokenHash,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      ip: sessions.ip,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt))
    .limit(SESSIONS_LISTED);
  return rows.map((row) => ({
    _id: row.id,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    ip: row.ip,
    userAgent: row.userAgent,
    current: row.tokenHash === currentTokenHash,
  }));
}

/** Ends one of the person's own sessions by its id; false when the person has no session of that id. */
export async function endSession(db: Db, userId: string, id: string): Promise<boolean> {
  const ended = await endSessionsWhere(db, and(eq(sessions.id, id), eq(sessions.userId, userId)));
  return ended.length > 0;
}
