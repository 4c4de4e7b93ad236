import pg from 'pg';

/**
 * Statements planned once per connection. PostgreSQL parses and plans an unnamed statement on every call; for a
 * list's page statement that costs more than running it, and more again on the embedded database
 * (tests/bench). A statement whose text carries PLAN_ONCE (or whose query config sets `planOnce`) is
 * sent as a named prepared statement instead: parsed once per connection, and after five runs served from a
 * plan PostgreSQL keeps for it, made without its values, if that plan costs no more than planning with them. A
 * LIMIT or OFFSET it cannot see is costed as a tenth of the table, so a list writes its page size and first
 * page into its text (`written` in db/list.ts); list-plans.test.ts checks the kept plan is the one served.
 *
 * Only statements whose best plan does not depend on their values may say so: a list with a kept total (one
 * type, one scope, one sort; only the page moves), no filter or equalities only, a search of digits (one key of
 * its own index, users.ts), the session look-up, the ledger's writes. A LIKE search or a path prefix stays unnamed
 * and is planned with its values every time: a plan kept for `search LIKE $1` walked the whole date index for a
 * rare name, where the plan made with the text reads its few matches through the trigram index.
 */
export const PLAN_ONCE = '/* plan once */';

/** Per connection: a statement text past this many is planned every time rather than kept (a bound, not a tuning). */
const MAX_KEPT = 200;

let connections = 0;

type Config = pg.QueryConfig & { planOnce?: boolean; submit?: unknown };

/**
 * The pool's connection class: names the statements that may keep their plan. The embedded database serves
 * every connection from one session: names carry the connection's serial, so two connections' statements never
 * meet there, and the socket server deallocates a closed connection's (pglite-socket-server.mjs).
 */
export class PlanCachingClient extends pg.Client {
  readonly #prefix = `plan${(connections++).toString(36)}_`;
  readonly #names = new Map<string, string>();

  constructor(config?: pg.ClientConfig) {
    super(config);
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((config: unknown, ...rest: unknown[]) =>
      query(this.#named(config), ...rest)) as typeof this.query;
  }

  #named(config: unknown): unknown {
    if (!config || typeof config !== 'object') return config;
    const { text, name, planOnce, submit } = config as Config;
    if (name !== undefined || typeof submit === 'function' || typeof text !== 'string') return config;
    if (!(planOnce || text.includes(PLAN_ONCE))) return config;
    let kept = this.#names.get(text);
    if (kept === undefined) {
      if (this.#names.size >= MAX_KEPT) return config;
      kept = `${this.#prefix}${this.#names.size}`;
      this.#names.set(text, kept);
    }
    return { ...(config as Config), name: kept };
  }
}
