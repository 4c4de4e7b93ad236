import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { ALL_USER_TYPES, USER_TYPE_NAMES, UserStatus, UserType } from '../../shared/enums';
import { MSG } from '../../shared/messages';
import { can } from '../../shared/roles';
import type { Db } from '../db/open';
import type { Rider, RiderSource } from '../db/ride';
import { errorBody, forbidden, unauthorized } from './errors';
import {
  hashToken,
  lookupSessionByHash,
  type SessionLookup,
  type SessionRow,
  type SessionUser,
  sessionOf,
  sessionSelect,
} from './session-token';

/**
 * Who may call a route: `public` (no token), `optional` (anyone; a valid token identifies the caller),
 * `session` (signed in, allowed before the initial password is
 * changed: fetch-self, resetPassword, logout) or, by default, `private` (signed in with a chosen password).
 */
export type RouteAccess = 'public' | 'optional' | 'session' | 'private';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** false: a server-to-server route authenticated otherwise (the partner's signed callback). */
    xsrf?: boolean;
    /**
     * true: the route only reads, so its work may start before the caller's session is read again, on the
     * user that session had last time (below). Never on a route that writes anything.
     */
    readOnly?: boolean;
  }
  interface FastifyRequest {
    auth: { user: SessionUser; tokenHash: string } | null;
    /** The token's user even when the guard refuses it (inactive, customer, initial password): for the trail. */
    identifiedUser: SessionUser | null;
    /**
     * A read-only route's session look-up, riding in the route's own statement or under way on its own, while its
     * work runs on the expected user.
     */
    pendingSession: PendingSession | null;
  }
}

/** The look-up as a statement carries it, its token hash bound by name. */
const SESSION_RIDER = sessionSelect(sql.placeholder('sessionTokenHash'));

/**
 * A read-only call's session look-up, made while its work already runs on the user its token had last time. It
 * rides in the work's first statement that can carry it (a JSON page or a one-row statement, db/ride.ts: one
 * round trip and one database backend for the call instead of two) when that goes out before the event loop
 * turns; otherwise, or if that statement fails, it goes on its own at the turn, beside the work. Either way it is
 * the same select and the same rules (sessionOf).
 */
export class PendingSession implements RiderSource {
  readonly result: Promise<SessionLookup>;
  #state: 'waiting' | 'riding' | 'answered' | 'sent' = 'waiting';
  #settle!: { resolve(found: SessionLookup): void; reject(error: unknown): void };

  constructor(
    private readonly db: Db,
    private readonly tokenHash: string,
  ) {
    this.result = new Promise((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    this.result.catch(() => {}); // awaited by settle; a failure answers there
    setImmediate(() => this.send());
  }

  /** The look-up for a statement to carry, if it has not gone yet. */
  rider(): Rider | undefined {
    if (this.#state !== 'waiting') return undefined;
    this.#state = 'riding';
    return {
      name: 'session',
      select: SESSION_RIDER,
      values: { sessionTokenHash: this.tokenHash },
      deliver: (row) => {
        if (this.#state !== 'riding') return;
        this.#state = 'answered';
        sessionOf(this.db, this.tokenHash, row as SessionRow | undefined).then(
          this.#settle.resolve,
          this.#settle.reject,
        );
      },
      fail: () => {
        if (this.#state !== 'riding') return;
        this.#state = 'waiting';
        this.send();
      },
    };
  }

  /** Sends the look-up on its own, unless it went or rides already. */
  send() {
    if (this.#state !== 'waiting') return;
    this.#state = 'sent';
    lookupSessionByHash(this.db, this.tokenHash).then(this.#settle.resolve, this.#settle.reject);
  }
}

/**
 * How many tokens' last users a server remembers, to start read-only routes early (under 1 KB each, and no
 * secrets: http/session-token.ts).
 */
const REMEMBERED_SESSIONS = 5_000;

const BEARER = /^bearer\s+(\S+)$/i;

/**
 * Authenticates every route of the scope it is registered in (`/api/v1`) from the `X-auth-token: bearer
 * <token>` header, by the route's own `config.access`: the route that answers decides, however its path was
 * spelled.
 */
export const sessionGuard = fp(
  async (api: FastifyInstance) => {
    api.decorateRequest('auth', null);
    api.decorateRequest('identifiedUser', null);
    api.decorateRequest('pendingSession', null);
    // Each recent token's user as its last look-up found it. A read-only route runs on that user while its
    // session is read again beside it, so the call costs one round trip to the database instead of two in a
    // row; the answer waits for the look-up, and is refused if it refuses or redone if the user changed.
    const lastUserOf = new Map<string, SessionUser>();

    /** Lets the call in as the look-up's user, or refuses it: the same rules whether it ran early or not. */
    const admit = (request: FastifyRequest, found: SessionLookup, access: RouteAccess) => {
      if (found.kind === 'missing') throw unauthorized(MSG.invalidSession);
      if (found.kind === 'expired') throw unauthorized(MSG.sessionExpired);
      request.identifiedUser = found.user;
      // Status and type are read fresh on every call, so deactivation locks a user out at once.
      if (found.user.status !== UserStatus.ACTIVE) throw unauthorized(MSG.inactiveUser);
      if (found.user.type === UserType.CUSTOMER) throw forbidden(MSG.customerLoginRefused);
      if (access === 'private' && !found.user.passwordUpdatedAt) throw forbidden(MSG.passwordChangeRequired);
      // Frozen: the remembered row is handed to every early call of the token, concurrent ones included.
      const user = Object.freeze(found.user);
      request.auth = { user, tokenHash: found.tokenHash };
      lastUserOf.delete(found.tokenHash);
      lastUserOf.set(found.tokenHash, user);
      if (lastUserOf.size > REMEMBERED_SESSIONS) lastUserOf.delete(lastUserOf.keys().next().value as string);
    };

    /** Waits for an early route's look-up and admits (or refuses) the call by it, once. */
    const settle = async (request: FastifyRequest) => {
      const pending = request.pendingSession;
      if (!pending) return;
      request.pendingSession = null;
      request.auth = null;
      request.identifiedUser = null;
      pending.send();
      admit(request, await pending.result, request.routeOptions.config.access ?? 'private');
    };

    api.addHook('onRequest', async (request) => {
      const access: RouteAccess = request.routeOptions.config.access ?? 'private';
      if (access === 'public') return;
      const header = request.headers['x-auth-token'];
      const token = typeof header === 'string' ? BEARER.exec(header.trim())?.[1] : undefined;
      if (!token && access === 'optional') return;
      if (!token) throw unauthorized(MSG.authRequired);
      const tokenHash = hashToken(token);
      const expected = request.routeOptions.config.readOnly ? lastUserOf.get(tokenHash) : undefined;
      if (expected) {
        request.auth = { user: expected, tokenHash };
        request.identifiedUser = expected;
        request.pendingSession = new PendingSession(api.db, tokenHash);
        return;
      }
      admit(request, await lookupSessionByHash(api.db, tokenHash), access);
    });

    // A read-only route's answer goes out only once its session is confirmed, on the user confirmed.
    api.addHook('onRoute', (route) => {
      if (!route.config?.readOnly) return;
      // Its work runs before the caller is known to be signed in: only ever a read.
      const methods = [route.method].flat();
      if (methods.some((method) => method !== 'GET' && method !== 'HEAD'))
        throw new Error(`${methods.join(', ')} ${route.url} is marked readOnly: only a GET route may be`);
      const work = route.handler;
      route.handler = async function (this: FastifyInstance, request, reply) {
        if (!request.pendingSession) return work.call(this, request, reply);
        const expected = request.auth?.user;
        const [answer] = await Promise.allSettled([work.call(this, request, reply)]);
        await settle(request);
        if (!sameUser(expected, request.auth?.user)) return work.call(this, request, reply);
        if (answer.status === 'rejected') throw answer.reason;
        return answer.value;
      };
    });

    // A read-only route refused before its work ran (its input, its role) still answers the session's
    // refusal first, as if the look-up had come first.
    api.addHook('onSend', async (request, reply, payload) => {
      if (!request.pendingSession) return payload;
      try {
        await settle(request);
        return payload;
      } catch (refusal) {
        const { status, body, headers } = errorBody(refusal);
        if (status >= 500) request.log.error({ err: refusal }, 'session look-up failed');
        if (headers) reply.headers(headers);
        reply.status(status);
        return JSON.stringify(body);
      }
    });
  },
  { name: 'session-guard' },
);

/** Whether two reads of the session's user agree on every column it carries (a route's answer may depend on any). */
function sameUser(a: SessionUser | undefined, b: SessionUser | undefined) {
  if (!a || !b) return false;
  return (Object.keys(a) as (keyof SessionUser)[]).every((key) => {
    const x = a[key];
    const y = b[key];
    return x instanceof Date && y instanceof Date ? x.getTime() === y.getTime() : x === y;
  });
}

/** The signed-in caller; only call from non-public routes. */
export function caller(request: FastifyRequest) {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/**
 * Route guard from the shared role table (the same table the panel's canAccess reads). Registered as the route's
 * `preValidation`, so a caller without the right is refused (403) before its input is judged.
 */
export const requireRole = (resource: string, action: string) => async (request: FastifyRequest) => {
  if (!can(caller(request).user.type as UserType, resource, action)) throw forbidden();
};

/** Who may call a route guarded by requireRole, for the OpenAPI document ("ADMIN, EMPLOYEE"). */
export const whoMay = (resource: string, action: string) =>
  ALL_USER_TYPES.filter((type) => can(type, resource, action))
    .map((type) => USER_TYPE_NAMES[type])
    .join(', ');

/**
 * A route guarded by the role table: its role check (before validation) and its schema, described in the OpenAPI
 * document with who may call it.
 */
export const guarded = <S extends FastifySchema>(resource: string, action: string, schema: S) => ({
  preValidation: requireRole(resource, action),
  schema: { ...schema, description: whoMay(resource, action) },
});

/** guarded for a route that only reads (`config.readOnly`: it may start before its session is read again). */
export const guardedRead = <S extends FastifySchema>(resource: string, action: string, schema: S) => ({
  ...guarded(resource, action, schema),
  config: { readOnly: true },
});
