import { type SQL, sql } from 'drizzle-orm';
import { UserType } from '../../../shared/enums';
import { EVENT_RETENTION_HOURS, type LiveEventKind } from '../../../shared/schemas/events';
import type { Db } from '../../db/open';
import { RUNNER_CLASS, type RunnerKey, type RunnerLocks } from '../../db/runner-lock';
import type { SaleEventBody } from './raise';

/**
 * The bus behind `GET events`: the `events` table, read by each server. One loop per server reads what was written
 * since its last read and hands each row to its streams that may see it, so a stream costs no query of its own
 * while it is live; a stream that reconnects (`Last-Event-ID`) first reads what it missed, in its own scope.
 *
 * Rows are read in (xid, id) order, and only rows of transactions older than every transaction still running
 * (`xid < pg_snapshot_xmin(pg_current_snapshot())`): ids are taken when a row is written, not when it commits, so a
 * transaction that took id 10 may commit after one that took id 11; reading by id alone would pass 10 over. With the
 * transaction's id beside it, nothing that commits later can sort before what was read. An event waits for the
 * writes that were running when it committed: on the embedded database (one connection) nothing runs beside it.
 */

/** Where a reader is in the events: after the row (xid, id). */
export interface Position {
  xid: bigint;
  id: number;
}

export const after = (a: Position, b: Position) => a.xid > b.xid || (a.xid === b.xid && a.id > b.id);

/** A stored event as the bus reads it. */
export interface EventRow {
  id: number;
  xid: string;
  kind: LiveEventKind;
  body: Record<string, unknown>;
  toNetwork: string | null;
  toStaff: 'ALL' | 'ADMINS' | 'NONE';
  toUser: string | null;
  toSession: string | null;
}

export const positionOf = (row: Pick<EventRow, 'xid' | 'id'>): Position => ({
  xid: BigInt(row.xid),
  id: Number(row.id),
});

/** Who reads a stream: the signed-in person and the session it reads with. */
export interface Viewer {
  id: string;
  type: number;
  path: string | null;
  sessionId: string;
}

/**
 * Whether `viewer` sees the event: the scoping of the lists (modules/network's networkScope) said of an event's
 * audience. A session's own event reaches that session only; else the person named, admins (every event for
 * staff), employees (the events for all staff), and a tier user when its path is a prefix of the event's network.
 * visibleTo below is the same rule in SQL, for a replay.
 */
export function sees(viewer: Viewer, row: EventRow): boolean {
  if (row.toSession !== null) return row.toSession === viewer.sessionId;
  if (row.toUser !== null && row.toUser === viewer.id) return true;
  if (viewer.type === UserType.ADMIN) return row.toStaff !== 'NONE';
  if (viewer.type === UserType.EMPLOYEE) return row.toStaff === 'ALL';
  return row.toNetwork !== null && viewer.path !== null && row.toNetwork.startsWith(viewer.path);
}

/** `sees` in SQL, on the events table aliased `e`. */
function visibleTo(viewer: Viewer): SQL {
  const audience =
    viewer.type === UserType.ADMIN
      ? sql`e.to_staff <> 'NONE'`
      : viewer.type === UserType.EMPLOYEE
        ? sql`e.to_staff = 'ALL'`
        : viewer.path
          ? sql`e.to_network like ${`${viewer.path}%`}`
          : sql`false`;
  return sql`(e.to_session = ${viewer.sessionId}
    or (e.to_session is null and (e.to_user = ${viewer.id} or ${audience})))`;
}

/** The data a reader is sent: a sale's commission is the reader's own share, and only for a receiver. */
export function dataFor(viewer: Viewer, row: EventRow): Record<string, unknown> {
  if (row.kind !== 'sale') return row.body;
  const { commissions, ...sale } = row.body as unknown as SaleEventBody;
  const own = commissions?.[viewer.id];
  return own === undefined ? sale : { ...sale, commission: own };
}

/** Rows read at a time, by the loop and by a replay. */
const PAGE = 500;

const COLUMNS = sql`e.id, e.xid::text as xid, e.kind, e.body, e.to_network as "toNetwork", e.to_staff as "toStaff",
  e.to_user as "toUser", e.to_session as "toSession"`;

/** Rows after `from` that every running transaction is younger than, in order (optionally: only `viewer`'s). */
async function readAfter(db: Db, from: Position, viewer?: Viewer): Promise<EventRow[]> {
  const result = await db.execute(sql`select ${COLUMNS} from events e
    where (e.xid, e.id) > (${from.xid.toString()}::xid8, ${from.id}::bigint)
      and e.xid < pg_snapshot_xmin(pg_current_snapshot())
      ${viewer ? sql`and ${visibleTo(viewer)}` : sql``}
    order by e.xid, e.id limit ${PAGE}`);
  return result.rows as unknown as EventRow[];
}

/** The position after the last row every reader may read now: where a loop that starts now begins. */
async function headPosition(db: Db): Promise<Position> {
  const result = await db.execute(sql`select e.xid::text as xid, e.id from events e
    where e.xid < pg_snapshot_xmin(pg_current_snapshot()) order by e.xid desc, e.id desc limit 1`);
  const row = result.rows[0] as { xid: string; id: number } | undefined;
  return row ? positionOf(row) : { xid: 0n, id: 0 };
}

/**
 * Where a stream reconnecting with `Last-Event-ID: <id>` resumes: after that event. An event no longer kept (older
 * than the retention) resumes from the oldest kept; an id never given (past the newest) from now (null).
 */
export async function resumePosition(db: Db, lastId: number): Promise<Position | null> {
  const found = await db.execute(sql`select e.xid::text as xid, e.id from events e where e.id = ${lastId}`);
  const row = found.rows[0] as { xid: string; id: number } | undefined;
  if (row) return positionOf(row);
  const oldest = await db.execute(sql`select min(e.id) as id from events e`);
  const first = (oldest.rows[0] as { id: number | string | null } | undefined)?.id;
  return first !== null && first !== undefined && lastId < Number(first) ? { xid: 0n, id: 0 } : null;
}

/** A stream the bus feeds: who reads it and where to hand its events. */
export interface Subscriber {
  viewer: Viewer;
  deliver(row: EventRow): void;
}

/** How often each server reads the table while it has streams open. */
export const POLL_MS = 500;

export class EventBus {
  readonly #db: Db;
  readonly #log: { warn(obj: unknown, msg: string): void };
  readonly #streams = new Set<Subscriber>();
  /** Where the loop has read to; null while no stream is open (the loop is stopped). */
  #cursor: Position | null = null;
  #starting: Promise<void> | null = null;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  /** Whether the last read failed (logged once until one succeeds). */
  #failing = false;

  constructor(db: Db, log: { warn(obj: unknown, msg: string): void }) {
    this.#db = db;
    this.#log = log;
  }

  /**
   * Adds a stream. Resolves once the loop's position is known: every event after it reaches the stream, so a
   * replay read after this covers everything before it.
   */
  async subscribe(stream: Subscriber): Promise<void> {
    this.#streams.add(stream);
    this.#starting ??= this.#start();
    await this.#starting;
  }

  unsubscribe(stream: Subscriber) {
    this.#streams.delete(stream);
  }

  /** The position after the newest event every reader may read now. */
  head() {
    return headPosition(this.#db);
  }

  /** What `viewer` missed after `from`, a page at a time. */
  replay(viewer: Viewer, from: Position) {
    return readAfter(this.#db, from, viewer);
  }

  close() {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#streams.clear();
  }

  async #start() {
    try {
      this.#cursor = await headPosition(this.#db);
    } catch (error) {
      this.#starting = null;
      throw error;
    }
    this.#schedule();
  }

  #schedule(delay = POLL_MS) {
    if (this.#closed) return;
    this.#timer = setTimeout(() => void this.#poll(), delay);
    this.#timer.unref();
  }

  async #poll() {
    if (this.#streams.size === 0) {
      // Nobody listens here: the loop stops, and starts again from the head with the next stream.
      this.#cursor = null;
      this.#starting = null;
      return;
    }
    let full = false;
    try {
      const rows = await readAfter(this.#db, this.#cursor!);
      for (const row of rows) {
        for (const stream of this.#streams) if (sees(stream.viewer, row)) stream.deliver(row);
        this.#cursor = positionOf(row);
      }
      full = rows.length === PAGE;
      if (this.#failing) this.#log.warn({}, 'The event stream reads its events again');
      this.#failing = false;
    } catch (error) {
      if (!this.#failing) this.#log.warn({ err: error }, 'The event stream cannot read its events');
      this.#failing = true;
    }
    this.#schedule(full ? 0 : POLL_MS);
  }
}

/** The pruning's runner lock (db/runner-lock.ts): one server at a time removes old events. */
export const PRUNE_LOCK: RunnerKey = [RUNNER_CLASS.events, 1];
/** How often each server asks to prune. */
const PRUNE_EVERY_MS = 10 * 60_000;
/** Rows removed per statement, so no one statement holds the table long. */
const PRUNE_BATCH = 5_000;

/**
 * Removes the events older than EVENT_RETENTION_HOURS (before `now`), under the pruning's runner lock; null when
 * another server is pruning. Answers how many it removed.
 */
export async function pruneEvents(db: Db, runners: RunnerLocks, now = new Date()): Promise<number | null> {
  const lock = await runners.tryTake(PRUNE_LOCK);
  if (!lock) return null;
  const before = new Date(now.getTime() - EVENT_RETENTION_HOURS * 3_600_000);
  let removed = 0;
  try {
    for (;;) {
      lock.lost.throwIfAborted();
      const result = await db.execute(sql`delete from events where id in (
        select id from events where created_at < ${before.toISOString()}::timestamptz order by created_at limit ${PRUNE_BATCH})`);
      removed += result.rowCount ?? 0;
      if ((result.rowCount ?? 0) < PRUNE_BATCH) return removed;
    }
  } finally {
    await lock.release();
  }
}

/** Starts pruning in this server: every PRUNE_EVERY_MS, on whichever server gets the lock. Returns its stop. */
export function startEventPruning(
  db: Db,
  runners: RunnerLocks,
  log: { warn(obj: unknown, msg: string): void },
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = pruneEvents(db, runners).catch((error) =>
      log.warn({ err: error }, 'Old events could not be removed; the next run tries again'),
    );
  }, PRUNE_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
