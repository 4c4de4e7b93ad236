import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/open';
import type { ReadNeeds } from '../db/replica';
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
  | { kind: 'ok'; user: SessionUser; tokenHash: string; wal?: ReadNeeds };

/**
 * The session guard's one query: the token's session and its user, read fresh on every call. `wal`, for a read
 * the replica may answer: the same query also returns the session's WAL position and the primary's
 * (db/replica.ts).
 */
export const lookupSession = (db: Queryable, token: string, opts: { wal?: boolean } = {}) =>
  lookupSessionByHash(db, hashToken(token), opts.wal ?? false);

/** lookupSession for a token already hashed. An expired session is deleted and refused. */
async function lookupSessionByHash(db: Queryable, tokenHash: string, wal: boolean): Promise<SessionLookup> {
  const askedAt = Date.now();
  const [row] = await runStatement<SessionRow>(db, wal ? SESSION_SELECT_WAL : SESSION_SELECT, [tokenHash]);
  if (!row) return { kind: 'missing' };
  const { sessionExpiresAt, sessionLsn, primaryLsn, ...user } = row;
  if (sessionExpiresAt.getTime() <= Date.now()) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return { kind: 'expired' };
  }
  return {
    kind: 'ok',
    user,
    tokenHash,
    ...(primaryLsn ? { wal: { primaryLsn, askedAt, sessionLsn: sessionLsn ?? null } } : {}),
  };
}

/** The look-up's row: the session's expiry and its user's columns a call reads (and WAL positions, asked). */
type SessionRow = SessionUser & {
  sessionExpiresAt: Date;
  sessionLsn?: string | null;
  primaryLsn?: string;
};

/**
 * Run by every signed-in call: hand-written, its text built once (db/statements.ts). The columns are named by
 * field, as a users select gives them.
 */
const SESSION_SELECT = `select s.expires_at as "sessionExpiresAt", ${columnsOf(users, 'u', SESSION_USER_FIELDS)}
    from sessions s join users u on u.id = s.user_id where s.token_hash = $1 limit 1`;

/** SESSION_SELECT for a read the replica may answer: with the session's and the primary's WAL positions. */
const SESSION_SELECT_WAL = `select s.expires_at as "sessionExpiresAt", s.wal_lsn::text as "sessionLsn",
    pg_current_wal_insert_lsn()::text as "primaryLsn", ${columnsOf(users, 'u', SESSION_USER_FIELDS)}
    from sessions s join users u on u.id = s.user_id where s.token_hash = $1 limit 1`;

/**
 * Read-your-writes (with a read replica only): after a session's successful write, the primary's position, which
 * that write's commit is behind; the session's replica reads wait for the replica to replay it.
 */
export async function recordSessionWrite(db: Queryable, tokenHash: string): Promise<void> {
  await runStatement(db, RECORD_WRITE, [tokenHash]);
}

const RECORD_WRITE = 'update sessions set wal_lsn = pg_current_wal_insert_lsn() where token_hash = $1';
