import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/open';
import { sessions, users } from '../db/schema';
import { columnsOf, runStatement } from '../db/statements';

export type UserRow = typeof users.$inferSelect;

/**
 * The columns of a session's user that a signed-in call reads: who it is, whether it may call, and where it sits
 * in the network. Never its password hash, Aadhar or search text.
 */
const SESSION_USER_FIELDS = [
  'id',
  'type',
  'name',
  'status',
  'passwordUpdatedAt',
  'path',
  'masterDistributorId',
  'distributorId',
  'retailerId',
  'districtId',
  'tehsilId',
] as const satisfies readonly (keyof UserRow)[];

export type SessionUser = Pick<UserRow, (typeof SESSION_USER_FIELDS)[number]>;

/** Only the SHA-256 of a session token is stored. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type SessionLookup =
  | { kind: 'missing' }
  | { kind: 'expired' }
  | { kind: 'ok'; user: SessionUser; tokenHash: string };

/** The session guard's one query: the token's session and its user, read fresh on every call. */
export const lookupSession = (db: Queryable, token: string) => lookupSessionByHash(db, hashToken(token));

/** lookupSession for a token already hashed. An expired session is deleted and refused. */
async function lookupSessionByHash(db: Queryable, tokenHash: string): Promise<SessionLookup> {
  const [row] = await runStatement<SessionRow>(db, SESSION_SELECT, [tokenHash]);
  if (!row) return { kind: 'missing' };
  const { sessionExpiresAt, ...user } = row;
  if (sessionExpiresAt.getTime() <= Date.now()) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return { kind: 'expired' };
  }
  return { kind: 'ok', user, tokenHash };
}

/** The look-up's row: the session's expiry and its user's columns a call reads. */
type SessionRow = SessionUser & { sessionExpiresAt: Date };

/**
 * Run by every signed-in call: hand-written, its text built once (db/statements.ts). The columns are named by
 * field, as a users select gives them.
 */
const SESSION_SELECT = `select s.expires_at as "sessionExpiresAt", ${columnsOf(users, 'u', SESSION_USER_FIELDS)}
    from sessions s join users u on u.id = s.user_id where s.token_hash = $1 limit 1`;
