import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import type { Queryable } from '../db/open';
import { runStatement } from '../db/statements';

/**
 * One request counted, in one statement: a new key starts a window of `$2` ms with one hit; a key whose window
 * has ended starts a fresh one; otherwise its count goes up by one. PostgreSQL takes the row's lock for the
 * update, so requests at once on any number of servers are each counted (none is lost), and the window is read
 * from the database's clock, the one every server shares. Answers the count and the milliseconds left.
 */
const HIT = `insert into rate_limit_hits as h (key, hits, resets_at)
  values ($1, 1, now() + $2::integer * interval '1 millisecond')
  on conflict (key) do update set
    hits = case when h.resets_at <= now() then 1 else least(h.hits + 1, 2147483647) end,
    resets_at = case when h.resets_at <= now() then excluded.resets_at else h.resets_at end
  returning hits, greatest(0, ceil(extract(epoch from resets_at - now()) * 1000))::integer as ttl`;

/** The count and the milliseconds left of a window still running, counting nothing. */
const READ = `select hits, greatest(0, ceil(extract(epoch from resets_at - now()) * 1000))::integer as ttl
  from rate_limit_hits where key = $1 and resets_at > now()`;

type Counted = { hits: number; ttl: number };
type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** What the library hands `child`: the plugin's options merged with the route's `config.rateLimit`. */
interface LimitOptions {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * This store counts fixed windows only: a window that stretches while it is exceeded would need the route's
 * `max` in the statement, and nothing here asks for it. A route that sets either option is refused when the
 * app is built, not quietly counted another way.
 */
function refuseStretchingWindows(options: LimitOptions) {
  for (const option of ['continueExceeding', 'exponentialBackoff'] as const)
    if (options[option])
      throw new Error(
        `The PostgreSQL rate-limit store counts fixed windows: ${option} is not supported (http/rate-limit.ts)`,
      );
}

/**
 * @fastify/rate-limit's `store` (its documented option, the contract of its LocalStore and RedisStore) kept in
 * PostgreSQL, table `rate_limit_hits`: every server on the database counts the same requests, so adding servers
 * does not multiply a limit. Each route has counters of its own (its method and path prefix the key, as in
 * RedisStore); the key the library passes is the client's address.
 */
export function postgresRateLimitStore(db: Queryable): FastifyRateLimitStoreCtor {
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    readonly #prefix: string;

    constructor(options: FastifyRateLimitOptions | LimitOptions, prefix = '') {
      refuseStretchingWindows(options as LimitOptions);
      this.#prefix = prefix;
    }

    incr(key: string, callback: Callback, timeWindow: number) {
      runStatement<Counted>(db, HIT, [this.#prefix + key, timeWindow]).then(
        ([row]) => callback(null, { current: row.hits, ttl: row.ttl }),
        (error: Error) => callback(error),
      );
    }

    /** The library's `{ increment: false }`: the state of a running window, or none. */
    read(key: string, callback: Callback) {
      runStatement<Counted>(db, READ, [this.#prefix + key]).then(
        ([row]) => callback(null, row ? { current: row.hits, ttl: row.ttl } : { current: 0, ttl: 0 }),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: object) {
      const options = routeOptions as LimitOptions;
      const { method = '', url = '' } = options.routeInfo ?? {};
      return new PostgresRateLimitStore(options, `${this.#prefix}${[method].flat().join(',')}${url}-`);
    }
  }
  return PostgresRateLimitStore;
}

/**
 * Deletes the counters whose window has ended: they count for nothing (the next request starts afresh), and the
 * table must not grow with every address ever seen. Run by the throttle's pruning timer (modules/account).
 */
export const pruneRateLimitHits = (db: Queryable) =>
  runStatement(db, 'delete from rate_limit_hits where resets_at <= now()', [], { prepared: false });
