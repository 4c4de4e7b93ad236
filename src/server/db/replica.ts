import type pg from 'pg';
import type { Db } from './open';
import { runStatement } from './statements';

/**
 * The read replica (DATABASE_REPLICA_URL): which database one list or report read goes to. The replica answers
 * only when it holds everything the read must see; otherwise, and whenever it is down or too far behind, the read
 * goes to the primary, so a person sees the same answer either way. http/reader.ts applies it to the routes.
 *
 * Both questions are asked of the replica, in one small query per read, by PostgreSQL's own comparisons:
 * - Read-your-writes: the session keeps the primary's WAL position after that person's latest write
 *   (`pg_current_wal_lsn()`, http/session-token.ts); the replica serves them once
 *   `pg_last_wal_replay_lsn() >= that position`, compared as `pg_lsn`.
 * - Lag: none when the replica has replayed all it has received (`pg_last_wal_receive_lsn() =
 *   pg_last_wal_replay_lsn()`), otherwise the age of the last transaction it replayed
 *   (`now() - pg_last_xact_replay_timestamp()`); above REPLICA_MAX_LAG_SECONDS the read goes to the primary.
 */

/** What a read needs of the replica, read by the session look-up on the primary. */
export interface ReadNeeds {
  /** The session's position after its latest write; null when it wrote nothing since a replica was used. */
  sessionLsn: string | null;
}

/** The replica's side, for a session whose latest write is at $1 (null: none). */
const POSITION = `select pg_is_in_recovery() as "inRecovery",
    coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, $1::pg_lsn is null) as "hasWrite",
    case when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
      else extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 end as lag`;

type Position = { inRecovery: boolean; hasWrite: boolean; lag: number | null };

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
 * of reads during an outage logs one warning).
 */
export class ReplicaRouter {
  readonly #replica: Db;
  readonly #maxLagSeconds: number;
  readonly #log: ReplicaLog;
  #health: Health = { state: 'ready' };
  #retryAt = 0;
  #probing = false;

  constructor(replica: { db: Db; pool: pg.Pool }, opts: { maxLagSeconds: number; log: ReplicaLog }) {
    this.#replica = replica.db;
    this.#maxLagSeconds = opts.maxLagSeconds;
    this.#log = opts.log;
    // A connection the replica dropped while idle: it may be down.
    replica.pool.on('error', (error) => this.failed(error));
  }

  /** The replica's database for this read, or null for the primary. */
  async choose(needs: ReadNeeds): Promise<Db | null> {
    const down = this.#health.state !== 'ready';
    if (down && (Date.now() < this.#retryAt || this.#probing)) return null;
    this.#probing = down;
    let position: Position | undefined;
    try {
      [position] = await runStatement<Position>(this.#replica, POSITION, [needs.sessionLsn]);
    } catch (error) {
      this.failed(error);
      return null;
    } finally {
      this.#probing = false;
    }
    if (!position?.inRecovery) {
      // A server that is not in recovery (a promoted replica, or a primary named by mistake).
      this.#become({ state: 'not a replica' });
      this.#retryAt = Date.now() + RETRY_AFTER_MS;
      return null;
    }
    // A replica behind on what it received and that has replayed no transaction yet: its lag is unknown.
    const lag = position.lag ?? Number.POSITIVE_INFINITY;
    if (lag > this.#maxLagSeconds) {
      this.#become({ state: 'lagging', seconds: lag });
      return null;
    }
    this.#become({ state: 'ready' });
    // Read-your-writes: a replica that has not replayed this person's latest write is healthy, but not for them.
    return position.hasWrite ? this.#replica : null;
  }

  /** A read on the replica failed (or one of its idle connections did): reads go to the primary for a while. */
  failed(error: unknown) {
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
