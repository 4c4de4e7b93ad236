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
  'mfaSetupRequired',
] as const satisfies readonly (keyof UserRow)[];

/** The session's user, and whether its second step (TOTP) is on (the guard's set-up rule reads both). */
export type SessionUser = Pick<UserRow, (typeof SESSION_USER_FIELDS)[number]> & { mfaEnabled: boolean };

/** Only the SHA-256 of a session token is stored. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type SessionLookup =
  | { kind: 'missing' }
  | { kind: 'expired' }
  | { kind: 'ok'; user: SessionUser; tokenHash: string; wal?: ReadNeeds };

/**
 * The session guard's one query: the token's session and its user, read fresh on every call. `wal`, for a read
 * the replica may answer: the same query also returns the session's WAL position (db/replica.ts).
 */
export const lookupSession = (db: Queryable, token: string, opts: { wal?: boolean; ip?: string } = {}) =>
  lookupSessionByHash(db, hashToken(token), opts.wal ?? false, opts.ip);

/**
 * How stale a session's "last seen" may get. Every signed-in call reads its session; writing the row on each call
 * would make every read a write (a WAL record and a dead row version per call, and on the embedded database a
 * write queued behind the one connection), while a person recognising a session in account/sessions needs it to
 * the minute, no finer.
 */
const LAST_SEEN_EVERY_MS = 60_000;

/** lookupSession for a token already hashed. An expired session is deleted and refused. */
async function lookupSessionByHash(
  db: Queryable,
  tokenHash: string,
  wal: boolean,
  ip: string | undefined,
): Promise<SessionLookup> {
  const askedAt = Date.now();
  const [row] = await runStatement<SessionRow>(db, wal ? SESSION_SELECT_WAL : SESSION_SELECT, [tokenHash]);
  if (!row) return { kind: 'missing' };
  const { sessionExpiresAt, sessionLastSeenAt, sessionLsn, ...user } = row;
  if (sessionExpiresAt.getTime() <= Date.now()) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return { kind: 'expired' };
  }
  // The condition is repeated in the statement, so of several servers seeing the same minute pass, one writes.
  if (askedAt - sessionLastSeenAt.getTime() >= LAST_SEEN_EVERY_MS)
    await runStatement(db, TOUCH_SESSION, [tokenHash, ip ?? null, LAST_SEEN_EVERY_MS]);
  return {
    kind: 'ok',
    user,
    tokenHash,
    ...(wal ? { wal: { sessionLsn: sessionLsn ?? null } } : {}),
  };
}

/** The look-up's row: the session's expiry and its user's columns a call reads (and its WAL position, asked). */
type SessionRow = SessionUser & {
  sessionExpiresAt: Date;
  sessionLastSeenAt: Date;
  sessionLsn?: string | null;
};

/**
 * Run by every signed-in call: hand-written, its text built once (db/statements.ts). The columns are named by
 * field, as a users select gives them.
 */
const SESSION_COLUMNS = `s.expires_at as "sessionExpiresAt", s.last_seen_at as "sessionLastSeenAt",
    ${columnsOf(users, 'u', SESSION_USER_FIELDS)},
    exists (select 1 from second_steps ss where ss.user_id = u.id and ss.enabled_at is not null) as "mfaEnabled"`;

const SESSION_SELECT = `select ${SESSION_COLUMNS}
    from sessions s join users u on u.id = s.user_id where s.token_hash = $1 limit 1`;

/** SESSION_SELECT for a read the replica may answer: with the session's WAL position. */
const SESSION_SELECT_WAL = `select ${SESSION_COLUMNS}, s.wal_lsn::text as "sessionLsn"
    from sessions s join users u on u.id = s.user_id where s.token_hash = $1 limit 1`;

/** The session's "last seen" and address, when its last write is LAST_SEEN_EVERY_MS old ($3) or older. */
const TOUCH_SESSION = `update sessions set last_seen_at = now(), ip = coalesce($2, ip)
    where token_hash = $1 and last_seen_at <= now() - make_interval(secs => $3::int / 1000.0)`;

/**
 * Read-your-writes (with a read replica only): after a session's successful write, the primary's WAL write
 * position, which that write's commit is behind; the session's replica reads wait for the replica to replay it.
 */
export async function recordSessionWrite(db: Queryable, tokenHash: string): Promise<void> {
  await runStatement(db, RECORD_WRITE, [tokenHash]);
}

const RECORD_WRITE = 'update sessions set wal_lsn = pg_current_wal_lsn() where token_hash = $1';
