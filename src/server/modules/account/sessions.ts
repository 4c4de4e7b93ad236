import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt, ne } from 'drizzle-orm';
import type { Queryable as Db } from '../../db/open';
import { sessions, users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Issues an opaque random token; only its hash is stored. Also sweeps this user's expired sessions. */
export async function issueSession(db: Db, userId: string, ttlHours: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, now)));
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(now.getTime() + ttlHours * 3_600_000),
  });
  return token;
}

export type SessionLookup =
  | { kind: 'missing' }
  | { kind: 'expired' }
  | { kind: 'ok'; user: UserRow; tokenHash: string };

export async function lookupSession(db: Db, token: string): Promise<SessionLookup> {
  const tokenHash = hashToken(token);
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  if (!row) return { kind: 'missing' };
  if (row.session.expiresAt.getTime() <= Date.now()) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return { kind: 'expired' };
  }
  return { kind: 'ok', user: row.user, tokenHash };
}

export const revokeSession = (db: Db, tokenHash: string) =>
  db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));

/** Ends every session of the user except the one given (after a password change). */
export const revokeOtherSessions = (db: Db, userId: string, keepTokenHash: string) =>
  db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)));

export const revokeAllSessions = (db: Db, userId: string) =>
  db.delete(sessions).where(eq(sessions.userId, userId));
