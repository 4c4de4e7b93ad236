import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';
import { DatabaseUnavailable } from '../db/errors';
import type { Db } from '../db/open';
import { FAILOVER_WAIT_MS, primaryAbsent, waitForPrimary } from '../db/transaction';
import { isAppAnswer } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A call other than a read that may run twice with one effect (a keyed sale, the partner's callback): run
     * again after a failover, like every GET. A test of the request when only some calls are (those with a key).
     */
    idempotent?: boolean | ((request: FastifyRequest) => boolean);
  }
}

/**
 * Runs `work`, and when it fails because the primary is away (db/transaction.ts, primaryAbsent), waits for a
 * primary that answers and runs it again, for FAILOVER_WAIT_MS in all; past that, DatabaseUnavailable (503). Only
 * for work that may run twice with one effect, and only while `mayRunAgain()` (nothing of its answer sent yet).
 */
export async function rideThrough<T>(
  db: Db,
  work: () => Promise<T>,
  mayRunAgain: () => boolean = () => true,
): Promise<T> {
  const until = Date.now() + FAILOVER_WAIT_MS;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (isAppAnswer(error) || !mayRunAgain() || !(await primaryAbsent(db, error))) throw error;
      if (Date.now() >= until || !(await waitForPrimary(db, until))) throw new DatabaseUnavailable(error);
    }
  }
}

const READS = new Set(['GET', 'HEAD']);

/** Whether this call may run twice with one effect: a read, or a route that says so (`config.idempotent`). */
export function mayRunTwice(request: FastifyRequest): boolean {
  if (READS.has(request.method)) return true;
  const idempotent = request.routeOptions.config.idempotent;
  return idempotent === true || (typeof idempotent === 'function' && idempotent(request));
}

/**
 * Rides a failover of the primary (registered in `/api/v1`, after the read routing so it wraps it): the handler of
 * a call that may run twice (mayRunTwice) runs again once a primary answers (rideThrough); any other call that
 * fails on the database is answered 503 with Retry-After by the error handler (http/errors.ts), since it may have
 * written before the failure. The session look-up before every call rides through too (http/session.ts): nothing
 * of the call has run then.
 */
export const failover = fp(
  async (api: FastifyInstance) => {
    const db = api.db;
    api.addHook('onRoute', (route) => {
      const handler = route.handler as RouteHandlerMethod;
      route.handler = function runAgainAfterFailover(
        this: FastifyInstance,
        request: FastifyRequest,
        reply: FastifyReply,
      ) {
        if (!mayRunTwice(request)) return handler.call(this, request, reply);
        return rideThrough(
          db,
          async () => handler.call(this, request, reply),
          () => !reply.sent,
        );
      };
    });
  },
  { name: 'failover' },
);
