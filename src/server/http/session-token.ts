import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/open';
import { sessions, users } from '../db/schema';

export type UserRow = typeof users.$inferSelect;

/** Only the SHA-256 of a session token is stored. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type SessionLookup =
  | { kind: 'missing' }
  | { kind: 'expired' }
  | { kind: 'ok'; user: UserRow; tokenHash: string };

/** The session guard's one query: the token's session and its user, read fresh on every call. */
export async function lookupSession(db: Queryable, token: string): Promise<SessionLookup> {
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
