import { DrizzleQueryError } from 'drizzle-orm';
import pg from 'pg';

/**
 * Refusals the data layer decides (a row that is not there, a name already taken), said in the domain's words:
 * db/ knows nothing of HTTP, and http/errors.ts gives each kind its status (NotFound 404, Conflict 409).
 */
export class DomainError extends Error {
  constructor(
    message: string,
    /** The input field the refusal is about, when there is one. */
    readonly param?: string,
  ) {
    super(message);
  }
}

/** The row asked for is not there. */
export class NotFound extends DomainError {}

/** The write clashes with what is stored (a name taken, a race lost to a unique index). */
export class Conflict extends DomainError {}

/** An error and the errors that caused it (drizzle wraps the driver's error as `cause`). */
function* causes(error: unknown): Generator<{ code?: unknown; cause?: unknown }> {
  const seen = new Set<unknown>();
  for (let e = error; e && typeof e === 'object' && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    yield e as { code?: unknown; cause?: unknown };
  }
}

/** The SQLSTATE PostgreSQL answered with, wherever it is in the chain of causes. */
export function sqlStateOf(error: unknown): string | undefined {
  for (const e of causes(error)) if (e instanceof pg.DatabaseError) return e.code;
  return undefined;
}

/** PostgreSQL's unique_violation, whether drizzle wrapped the driver error or not. */
export const isUniqueViolation = (error: unknown) => sqlStateOf(error) === '23505';

/**
 * The SQLSTATEs of a primary that is going away or is no longer the primary: a connection exception (class 08),
 * admin_shutdown (57P01: a fast shutdown, or pg_terminate_backend), crash_shutdown (57P02), cannot_connect_now
 * (57P03: starting up, shutting down, or in recovery), and read_only_sql_transaction (25006: the connection
 * reached a server that was just demoted to a replica).
 */
const SWITCHOVER_STATES = new Set(['57P01', '57P02', '57P03', '25006']);

/** Node's codes of a connection that cannot be made or was cut. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * The errors with which pg reported a connection's end ('Connection terminated unexpectedly' and the like carry
 * no code). pg emits that error on the client and fails the client's queries with the very same object, so an
 * error in this set is a lost connection whatever its text.
 */
const connectionEnds = new WeakSet<object>();
/** The end each client reported, for a transaction whose rollback then failed on the dead connection. */
const endOfClient = new WeakMap<object, Error>();

/**
 * Watches `pool`'s connections (a few lines of db/open.ts call it for every pool): notes the error each reports
 * when it ends, so the error can be told apart from the app's own failures, and keeps a connection that ends while
 * a request holds it (pg then emits 'error' on the client, which nothing else listens to) from crashing the process.
 * pg-pool itself drops a client whose connection ended: an idle one at once, a held one when it is released.
 */
export function watchConnections(pool: pg.Pool) {
  // A connection the pool could not open fails pool.connect (and pool.query, which calls it) with no code: noted.
  const connect = pool.connect.bind(pool) as (
    callback?: (error: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void,
  ) => Promise<pg.PoolClient> | undefined;
  Object.assign(pool, {
    connect: (
      callback?: (
        error: Error | undefined,
        client?: pg.PoolClient,
        done?: (release?: unknown) => void,
      ) => void,
    ) =>
      callback
        ? connect((error, client, done) => callback(error && (connectFailed(error) as Error), client, done))
        : connect()?.catch((error: unknown) => {
            throw connectFailed(error);
          }),
  });
  const watched = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => {
    if (watched.has(client)) return;
    watched.add(client);
    client.on('error', (error) => {
      connectionEnds.add(error);
      endOfClient.set(client, error);
    });
  });
}

/**
 * A connection the pool could not open (no query ran on it): its failure counts as a connection's end, like one
 * watchConnections notes, unless PostgreSQL itself refused it (a DatabaseError keeps its SQLSTATE). pg reports a
 * connection cut while it opens (a proxy with no primary behind it, a primary killed) with no code.
 */
export function connectFailed(error: unknown): unknown {
  if (error && typeof error === 'object' && !(error instanceof pg.DatabaseError)) connectionEnds.add(error);
  return error;
}

/** The error with which `client`'s connection ended, if it did. */
export const connectionEndOf = (client: object | undefined) => (client ? endOfClient.get(client) : undefined);

/**
 * Whether `error` says the primary cannot be reached, or is no longer the primary: by its SQLSTATE, by Node's
 * connection code under a query drizzle names (the same codes from elsewhere, a partner or a mail server, say
 * nothing of the database), or as the error pg reported a connection's end with (watchConnections). Never by its
 * text.
 */
export function isSwitchover(error: unknown): boolean {
  let query = false;
  for (const e of causes(error)) {
    if (e instanceof pg.DatabaseError)
      return e.code !== undefined && (e.code.startsWith('08') || SWITCHOVER_STATES.has(e.code));
    if (connectionEnds.has(e)) return true;
    if (e instanceof DrizzleQueryError) query = true;
    else if (query && typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
  }
  return false;
}

/**
 * The request could not reach a primary within the wait for a failover (db/transaction.ts): http/errors.ts answers
 * it 503 with Retry-After.
 */
export class DatabaseUnavailable extends Error {
  constructor(cause: unknown) {
    super('no primary database answered', { cause });
  }
}
