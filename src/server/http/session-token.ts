import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/open';
import { sessions, users } from '../db/schema';
import { columnsOf, runStatement } from '../db/statements';

export type UserRow = typeof users.$inferSelect;

/** Only the SHA-256 of a session token is stored. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type SessionLookup =
  | { kind: 'missing' }
  | { kind: 'expired' }
  | { kind: 'ok'; user: UserRow; tokenHash: string };

/** The session guard's one query: the token's session and its user, read fresh on every call. */
export const lookupSession = (db: Queryable, token: string) => lookupSessionByHash(db, hashToken(token));

/** lookupSession for a token already hashed. */
export async function lookupSessionByHash(db: Queryable, tokenHash: string): Promise<SessionLookup> {
  const [row] = await runStatement<UserRow & { sessionExpiresAt: Date }>(db, SESSION_BY_TOKEN, [tokenHash]);
  if (!row) return { kind: 'missing' };
  const { sessionExpiresAt, ...user } = row;
  if (sessionExpiresAt.getTime() <= Date.now()) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return { kind: 'expired' };
  }
  return { kind: 'ok', user, tokenHash };
}

/** Run by every signed-in call: hand-written, its text built once (db/statements.ts). */
const SESSION_BY_TOKEN = `select s.expires_at as "sessionExpiresAt", ${columnsOf(users, 'u')}
    from sessions s join users u on u.id = s.user_id where s.token_hash = $1 limit 1`;
