import pg from 'pg';
import type { Db } from './open';
import { runStatement } from './statements';

/**
 * The read replica (DATABASE_REPLICA_URL): which database one list or report read goes to. The replica answers
 * only when it holds everything the read must see; otherwise, and whenever it is down or too far behind, the read
 * goes to the primary, so a person sees the same answer either way. http/reader.ts applies it to the routes.
 *
 * Positions are PostgreSQL's WAL positions (LSNs). Two are known for a signed-in read, both from the session
 * look-up on the primary, at no extra query: the session's own (the primary's position after that person's
 * latest write, kept on the session) and the primary's current insert position.
 * - Read-your-writes: the replica must have replayed the session's position.
 * - Lag: a replica that has replayed the primary's position has nothing to catch up with; its lag is 0. Otherwise
 *   what it misses was committed after the last transaction it replayed, and after the latest moment it was seen
 *   caught up: the lag is at most the smaller of those two ages, and above REPLICA_MAX_LAG_SECONDS the read goes to
 *   the primary. Both bounds only ever overstate the lag (after a quiet spell, the first write makes the replica
 *   look behind until it replays it), so a read is never served staler than the limit.
 */

/** A WAL position's text (`16/B374D848`: the high and low 32 bits in hex) as a number that orders them. */
export function lsnValue(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  if (low === undefined || !/^[0-9A-Fa-f]{1,8}$/.test(high) || !/^[0-9A-Fa-f]{1,8}$/.test(low))
    throw new Error(`not a WAL position: ${lsn}`);
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** PostgreSQL's WAL page size as built by default, and by Debian. */
const WAL_PAGE = 8192n;

/**
 * Whether a replica that replayed up to `replayed` (the end of its last record) holds everything written before
 * the primary's insert position `insert`. An insert position at the very start of a WAL page points past the
 * page's header (24 bytes, 40 where a segment begins) although nothing follows it yet, while the replay position
 * of the record that filled the page before ends at the page's start: those two are the same point. (No record
 * is shorter than 24 bytes, so a record cannot both end at the page's start and be continued after its header.)
 */
export function hasReplayed(replayed: bigint, insert: bigint): boolean {
  if (replayed >= insert) return true;
  const inPage = insert % WAL_PAGE;
  return (inPage === 24n || inPage === 40n) && replayed === insert - inPage;
}

/** What a read needs of the replica, read by the session look-up on the primary. */
export interface ReadNeeds {
  /** The primary's WAL insert position during the look-up. */
  primaryLsn: string;
  /** Date.now() just before the look-up was sent. */
  askedAt: number;
  /** The session's position after its latest write; null when it wrote nothing since a replica was used. */
  sessionLsn: string | null;
}

/** The replica's side: how far it has replayed, and the age in seconds of the last transaction it replayed. */
const POSITION = `select pg_last_wal_replay_lsn()::text as replayed,
    extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as "sinceReplay"`;

type Position = { replayed: string | null; sinceReplay: number | null };

/** A replay position seen on the replica is reused this long without asking it again. */
const KNOWN_FOR_MS = 1000;
/** After the replica failed, reads go straight to the primary this long before one read tries it again. */
const RETRY_AFTER_MS = 1000;

type Health =
  | { state: 'ready' }
  | { state: 'unreachable'; reason: string }
  | { state: 'lagging'; seconds: number }
  | { state: 'not a replica' };

export interface ReplicaLog {
  warn(message: string): void;
  info(message: string): void;
}

/**
 * Chooses the database of each replica read, and logs when the replica's health changes (not per read: a flood
 * of reads during an outage logs one warning). Its note of the replica's replay position is a shortcut that can
 * only send a read to the primary needlessly: a replica never un-replays, and the note is dropped on any failure.
 */
export class ReplicaRouter {
  readonly #replica: Db;
  readonly #maxLagSeconds: number;
  readonly #log: ReplicaLog;
  #health: Health = { state: 'ready' };
  /** The latest replay position seen, and when (Date.now()). */
  #known: { replayed: bigint; at: number } | null = null;
  /** When the replica was last seen holding everything the primary had (Date.now() of that primary position). */
  #caughtUpAt = Number.NEGATIVE_INFINITY;
  #retryAt = 0;
  #probing = false;

  constructor(replica: { db: Db; pool: pg.Pool }, opts: { maxLagSeconds: number; log: ReplicaLog }) {
    this.#replica = replica.db;
    this.#maxLagSeconds = opts.maxLagSeconds;
    this.#log = opts.log;
    // A connection the replica dropped while idle: its position is no longer known.
    replica.pool.on('error', (error) => this.failed(error));
  }

  /** The replica's database for this read, or null for the primary. */
  async choose(needs: ReadNeeds): Promise<Db | null> {
    const now = Date.now();
    const primary = lsnValue(needs.primaryLsn);
    const own = needs.sessionLsn ? lsnValue(needs.sessionLsn) : 0n;
    const known = this.#known;
    if (
      known &&
      now - known.at < KNOWN_FOR_MS &&
      hasReplayed(known.replayed, primary) &&
      hasReplayed(known.replayed, own)
    ) {
      // It had replayed everything the primary held when this call came in: no lag, this person's writes in.
      this.#caughtUpAt = Math.max(this.#caughtUpAt, needs.askedAt);
      this.#become({ state: 'ready' });
      return this.#replica;
    }
    const down = this.#health.state !== 'ready';
    if (down && (now < this.#retryAt || this.#probing)) return null;
    this.#probing = down;
    let position: Position | undefined;
    try {
      [position] = await runStatement<Position>(this.#replica, POSITION, []);
    } catch (error) {
      this.failed(error);
      return null;
    } finally {
      this.#probing = false;
    }
    if (!position?.replayed) {
      // A server that is not in recovery (a promoted replica, or a primary named by mistake).
      this.#become({ state: 'not a replica' });
      this.#retryAt = Date.now() + RETRY_AFTER_MS;
      return null;
    }
    const replayed = lsnValue(position.replayed);
    this.#known = { replayed, at: Date.now() };
    let lag = 0;
    if (hasReplayed(replayed, primary)) this.#caughtUpAt = Math.max(this.#caughtUpAt, needs.askedAt);
    else
      lag = Math.min(
        position.sinceReplay ?? Number.POSITIVE_INFINITY,
        (Date.now() - this.#caughtUpAt) / 1000,
      );
    if (lag > this.#maxLagSeconds) {
      this.#become({ state: 'lagging', seconds: lag });
      return null;
    }
    this.#become({ state: 'ready' });
    // Read-your-writes: a replica that has not replayed this person's latest write is healthy, but not for them.
    return hasReplayed(replayed, own) ? this.#replica : null;
  }

  /** A read on the replica failed (or one of its idle connections did): reads go to the primary for a while. */
  failed(error: unknown) {
    this.#known = null;
    this.#retryAt = Date.now() + RETRY_AFTER_MS;
    this.#become({ state: 'unreachable', reason: (error as Error)?.message ?? String(error) });
  }

  #become(health: Health) {
    const was = this.#health;
    this.#health = health;
    if (health.state === was.state) return;
    if (health.state === 'ready') {
      this.#log.info('The read replica answers again: list and report reads go to it');
      return;
    }
    this.#log.warn(
      health.state === 'unreachable'
        ? `The read replica cannot be used (${health.reason}): list and report reads go to the primary`
        : health.state === 'lagging'
          ? `The read replica lags ${health.seconds === Number.POSITIVE_INFINITY ? 'by an unknown time' : `${health.seconds.toFixed(1)} s`}, more than REPLICA_MAX_LAG_SECONDS (${this.#maxLagSeconds}): list and report reads go to the primary`
          : 'The read replica is not replaying from a primary (not in recovery): list and report reads go to the primary',
    );
  }
}

/**
 * Whether an error is the database's or its connection's (a server gone, a refused or dropped connection, a
 * statement PostgreSQL cancelled), rather than a refusal of the app's own: a replica read that fails so is
 * read again from the primary.
 */
export function isDatabaseFailure(error: unknown): boolean {
  for (
    let e = error as (Error & { code?: unknown; cause?: unknown }) | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e instanceof pg.DatabaseError) return true;
    if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) return true; // ECONNREFUSED, ECONNRESET, ...
    if (/connect|terminat|timeout/i.test(String(e.message))) return true;
    if (e.cause === e) break;
  }
  return false;
}
