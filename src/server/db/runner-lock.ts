import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from './open';

/**
 * One runner at a time across servers (the settlement job, each import): PostgreSQL's session-level advisory lock,
 * `pg_try_advisory_lock(class, id)`, held while the work runs. PostgreSQL gives it back when its session ends, so a
 * server that dies (killed, or its machine gone) or loses its connection in a failover frees the work for another
 * server, and a live holder is never taken over: there is no lease to expire and no timer to renew it.
 *
 * - On PostgreSQL a server holds its locks on a connection of its own (a pg.Client beside the pool), which keeps its
 *   session while the pool's connections come and go. A dead peer is noticed on both ends: PostgreSQL's TCP
 *   keepalives and user timeout, set on the session (a holder's machine gone frees its locks in about 11 s), and
 *   here a bound on every query and a look every CHECK_MS while a lock is held (a holder whose connection died stops
 *   its work within 10 s; `lost` tells it).
 * - On the embedded database (PGlite) everything in the process shares one session, and only one server may open a
 *   DATA_DIR (data-dir-lock.ts): that directory lock is what makes one runner there. The locks are taken through the
 *   pool, which may be a single connection (a connection of their own would wait for it forever), so that pg_locks
 *   shows them as it does on PostgreSQL.
 *
 * A lock taken twice in one session is granted twice, so this process notes which locks each session holds and
 * never asks for one again while it holds it: two runs of one job never overlap inside one process, on either
 * engine, whichever RunnerLocks asks.
 */

/** A runner lock's key: its class and an id within it (the two-key form, apart from every one-key advisory lock). */
export type RunnerKey = readonly [number, number];

/** The classes of runner locks. */
export const RUNNER_CLASS = { settlement: 1, import: 2, notifications: 3, events: 4 } as const;

/** A lock held: until it is released, or lost with its session. */
export interface HeldLock {
  /** Aborted when the lock is lost (its connection ended or stopped answering): the work must stop. */
  readonly lost: AbortSignal;
  /** Gives it back; nothing is left to give once it is lost. */
  release(): Promise<void>;
}

export interface RunnerLog {
  info(obj: unknown, msg: string): void;
  warn(obj: unknown, msg: string): void;
}

/** A database session the locks live in, and the locks this process holds in it. */
interface Session {
  query<Row>(text: string, values: unknown[]): Promise<Row[]>;
  /** Aborted when the session ends. */
  readonly ended: AbortSignal;
  readonly held: Set<string>;
}

/** Every query on a lock connection of its own answers within this, or the connection counts as dead. */
const QUERY_MS = 5_000;
/** While it holds a lock, a server looks at its lock connection this often. */
const CHECK_MS = 5_000;
/**
 * The lock connection's session on the server: keepalive probes after 5 s of silence, every 2 s, 3 unanswered
 * ending it; sent data unacknowledged for 10 s ending it too. So PostgreSQL ends the session of a holder whose
 * machine is gone, and with it its locks, within about 11 s.
 */
const SESSION_SETTINGS = `select set_config('tcp_keepalives_idle', '5', false),
  set_config('tcp_keepalives_interval', '2', false), set_config('tcp_keepalives_count', '3', false),
  set_config('tcp_user_timeout', '10000', false)`;

/** The embedded database's session, one per pool, shared by every RunnerLocks over it. */
const embeddedSessions = new WeakMap<pg.Pool, Session>();

function embeddedSession(db: Db): Session {
  // drizzle() keeps the pool it was given as $client.
  const pool = (db as Db & { $client: pg.Pool }).$client;
  let session = embeddedSessions.get(pool);
  if (!session) {
    session = {
      query: async (text, values) => (await pool.query(text, values)).rows,
      // PGlite's one session ends only with the process.
      ended: new AbortController().signal,
      held: new Set(),
    };
    embeddedSessions.set(pool, session);
  }
  return session;
}

/** Whether `promise` settles within `ms`; rejects with `timeout` otherwise. */
function within<T>(promise: Promise<T>, ms: number, timeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timeout()), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** This server's runner locks (one per app: `app.runners`). */
export class RunnerLocks {
  readonly #db: Db;
  /** PostgreSQL's URL: the locks get a connection of their own. Unset: the embedded database. */
  readonly #databaseUrl: string | undefined;
  readonly #log: RunnerLog;
  #connecting: Promise<Session> | null = null;
  #client: pg.Client | null = null;
  /** Whether the last attempt to open the lock connection failed (logged once until one succeeds). */
  #failing = false;
  readonly #mine = new Set<HeldLock>();
  #closed = false;

  constructor(opts: { db: Db; databaseUrl?: string; log: RunnerLog }) {
    this.#db = opts.db;
    this.#databaseUrl = opts.databaseUrl && opts.databaseUrl !== 'memory://' ? opts.databaseUrl : undefined;
    this.#log = opts.log;
  }

  /**
   * Takes the lock `key` when nobody holds it; null when another server holds it, or this process does already.
   * Throws when the database cannot be asked, or the server is stopping (close).
   */
  async tryTake(key: RunnerKey): Promise<HeldLock | null> {
    if (this.#closed) throw new Error('the runner locks are closed: the server is stopping');
    const session = await this.#session();
    const name = key.join('/');
    if (session.held.has(name)) return null;
    session.held.add(name);
    let taken = false;
    try {
      const [row] = await session.query<{ taken: boolean }>('select pg_try_advisory_lock($1, $2) as taken', [
        ...key,
      ]);
      taken = row?.taken === true;
    } finally {
      if (!taken) session.held.delete(name);
    }
    if (!taken) return null;
    let released = false;
    const lock: HeldLock = {
      lost: session.ended,
      release: async () => {
        if (released) return;
        released = true;
        this.#mine.delete(lock);
        try {
          // A lock lost with its session is given back already.
          if (!session.ended.aborted) await session.query('select pg_advisory_unlock($1, $2)', [...key]);
        } finally {
          session.held.delete(name);
        }
      },
    };
    this.#mine.add(lock);
    return lock;
  }

  /** Gives back every lock this RunnerLocks holds, and closes its connection (when it has one). */
  async close() {
    this.#closed = true;
    await Promise.allSettled([...this.#mine].map((lock) => lock.release()));
    const client = this.#client;
    this.#client = null;
    this.#connecting = null;
    // A database that no longer answers must not hold the server's stop.
    if (client) await within(client.end(), QUERY_MS, () => new LockConnectionSilent()).catch(() => {});
  }

  #session(): Promise<Session> {
    if (!this.#databaseUrl) return Promise.resolve(embeddedSession(this.#db));
    this.#connecting ??= this.#connect(this.#databaseUrl).catch((error) => {
      this.#connecting = null;
      if (!this.#failing)
        this.#log.warn(
          { err: error },
          'Cannot open the connection for runner locks (the settlement job, imports)',
        );
      this.#failing = true;
      throw error;
    });
    return this.#connecting;
  }

  /** A connection of its own for the locks, ended (and its locks with it) as soon as it fails or stops answering. */
  async #connect(databaseUrl: string): Promise<Session> {
    const client = new pg.Client({
      connectionString: databaseUrl,
      keepAlive: true,
      keepAliveInitialDelayMillis: 5_000,
      connectionTimeoutMillis: QUERY_MS,
    });
    const ending = new AbortController();
    let check: NodeJS.Timeout | undefined;
    const end = (error: unknown) => {
      if (ending.signal.aborted) return;
      ending.abort(error);
      clearInterval(check);
      if (this.#client === client) {
        this.#client = null;
        this.#connecting = null;
      }
      if (!this.#closed && session.held.size > 0)
        this.#log.warn({ err: error }, 'The connection holding runner locks ended: their work stops here');
      session.held.clear();
      // Gone already, or hung: ending it here makes sure the server gives its locks back once it sees it.
      client.end().catch(() => {});
    };
    const ask = async <Row>(text: string, values: unknown[]) => {
      try {
        const result = await within(client.query(text, values), QUERY_MS, () => new LockConnectionSilent());
        return result.rows as Row[];
      } catch (error) {
        // A refusal of the query itself leaves the connection as it was; anything else ends it.
        if (!(error instanceof pg.DatabaseError)) end(error);
        throw error;
      }
    };
    const session: Session = { query: ask, ended: ending.signal, held: new Set() };
    client.on('error', end);
    client.on('end', () => end(new Error('the connection for runner locks closed')));
    try {
      await client.connect();
      await ask(SESSION_SETTINGS, []);
    } catch (error) {
      end(error);
      throw error;
    }
    if (this.#closed) {
      end(new Error('closed'));
      throw new Error('runner locks closed');
    }
    if (this.#failing) this.#log.info({}, 'The connection for runner locks is open again');
    this.#failing = false;
    this.#client = client;
    // While a lock is held, the connection must answer: a holder cut off stops its work (`lost`).
    check = setInterval(() => {
      if (session.held.size > 0) ask('select 1', []).catch(() => {});
    }, CHECK_MS);
    check.unref();
    return session;
  }
}

/** A lock connection that did not answer within QUERY_MS. */
class LockConnectionSilent extends Error {
  constructor() {
    super(`the connection for runner locks did not answer within ${QUERY_MS} ms`);
  }
}

/**
 * SQL: whether some session holds the runner lock of class `lockClass` and the id `id` (an int4 expression) in
 * this database. pg_locks shows every session's locks (the embedded engine's one session too), so any server can
 * tell whether a runner is alive.
 */
export const runnerLockHeld = (lockClass: number, id: SQL) => sql`exists (select 1 from pg_locks l
  where l.locktype = 'advisory' and l.granted and l.objsubid = 2
    and l.database = (select oid from pg_database where datname = current_database())
    and l.classid = ${lockClass}::int::oid and l.objid = (${id})::oid)`;

/** The log of a job run under a runner lock (the app's): runs that failed, a server taking the job up, losing it. */
export interface JobLog {
  error(obj: unknown, msg: string): void;
  warn(obj: unknown, msg: string): void;
  info(obj: unknown, msg: string): void;
  debug(obj: unknown, msg: string): void;
}

/**
 * A job that runs in one server at a time (the settlement job, the notifications' delivery). Every server asks for
 * the job's lock at each look; the holder keeps it while its session lives and calls `run` at each look, with the
 * lock (its `lost` signal stops the work). A holder that dies or loses its connection frees the job for another
 * server at that server's next look after PostgreSQL's release; a live holder is never replaced. Returns the stop
 * function, which waits for the look under way and gives the lock back.
 */
export function startLockedJob(
  runners: RunnerLocks,
  key: RunnerKey,
  job: {
    /** What the log calls it ('the settlement job'). */
    name: string;
    log: JobLog;
    /** One look, while this server holds the lock. */
    run: (lock: HeldLock) => Promise<void>;
    /** The wait before the next look, whether this server holds the lock or not. */
    nextLookMs: (holding: boolean) => number;
    /** When this server takes the lock. */
    onTaken?: () => void;
  },
): () => Promise<void> {
  let lock: HeldLock | null = null;
  let stopped = false;
  let ticking: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  const look = async () => {
    if (!lock) {
      let taken: HeldLock | null;
      try {
        taken = await runners.tryTake(key);
      } catch (error) {
        // The database is away: the runner locks said so once; this server asks again at its next look.
        job.log.debug({ err: error }, `${job.name} could not ask for its lock`);
        return;
      }
      if (!taken) {
        job.log.debug({}, `${job.name} runs on another server`);
        return;
      }
      lock = taken;
      job.onTaken?.();
      job.log.info({}, `This server runs ${job.name} now`);
      taken.lost.addEventListener('abort', () => {
        if (lock === taken) lock = null;
        if (!stopped)
          job.log.warn(
            { err: taken.lost.reason },
            `This server lost ${job.name} with its database connection; a server takes it up again once the database answers`,
          );
      });
    }
    await job.run(lock);
  };
  const loop = () => {
    if (stopped) return;
    ticking = look()
      .catch((error) => {
        if (!stopped) job.log.error({ err: error }, `${job.name} failed`);
      })
      .finally(() => {
        ticking = null;
        if (stopped) return;
        timer = setTimeout(loop, job.nextLookMs(lock !== null));
        timer.unref();
      });
  };
  loop();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await ticking;
    await lock?.release().catch(() => {});
    lock = null;
  };
}
