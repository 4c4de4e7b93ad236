import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';
import { isSwitchover, sqlStateOf } from '../db/errors';
import type { Db } from '../db/open';
import type { ReplicaRouter } from '../db/replica';
import { isAppAnswer } from './errors';
import { recordSessionWrite } from './session-token';

/**
 * Which reads the read replica may answer, by route: `'replica'` for a list or report, or a test of the request
 * (a list that also answers one record by id leaves that record to the primary). Everything else, the session
 * look-up of every call and every write included, reads and writes the primary.
 */
export type ReadsFrom = 'replica' | ((request: FastifyRequest) => boolean);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A read the replica may answer (db/replica.ts decides whether it does, read by read). */
    reads?: ReadsFrom;
  }
  interface FastifyRequest {
    /**
     * The database a route marked `config.reads` reads from: the replica when it may answer this read, else the
     * primary (`app.db`). Every other route reads `app.db`.
     */
    reader: Db;
  }
  interface FastifyInstance {
    /** The replica's router when DATABASE_REPLICA_URL is set, else null. */
    readRouter: ReplicaRouter | null;
  }
}

/** A report (or a list without a one-record form): the replica may answer it. */
export const reportReads = { reads: 'replica' } as const satisfies { reads: ReadsFrom };

/**
 * A list that also answers one record by an id parameter (`_id` unless named): its pages from the replica, the
 * one record from the primary (a form loads it right after saving it).
 */
export const listReads = (...byId: string[]) => {
  const keys = byId.length ? byId : ['_id'];
  return {
    reads: (request: FastifyRequest) => {
      const query = request.query as Record<string, unknown> | undefined;
      return !keys.some((key) => query?.[key]);
    },
  } satisfies { reads: ReadsFrom };
};

/** Whether the replica may answer this request (its route's `config.reads`). */
export function replicaMayAnswer(request: FastifyRequest): boolean {
  const reads = request.routeOptions.config.reads;
  return reads === 'replica' || (typeof reads === 'function' && reads(request));
}

const READER = Symbol('reader');
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Routes reads to the replica (registered in `/api/v1`). Without a replica only `request.reader` exists, and is
 * the primary: no hook runs and nothing is written per request. With one:
 * - a marked read goes to the replica when db/replica.ts says it may (`preHandler`, after the guards, so a
 *   refused call never reaches it), and is read again from the primary if the replica fails during it;
 * - after a signed-in person's successful write, the primary's WAL position is recorded on the session before
 *   the answer is sent (read-your-writes).
 */
export const readRouting = fp(
  async (api: FastifyInstance) => {
    const primary = api.db;
    api.decorateRequest('reader', {
      getter(this: FastifyRequest) {
        return (this as unknown as { [READER]?: Db })[READER] ?? primary;
      },
      setter(this: FastifyRequest, db: Db) {
        (this as unknown as { [READER]?: Db })[READER] = db;
      },
    });
    const router = api.readRouter;
    if (!router) return;

    api.addHook('onRoute', (route) => {
      if (!route.config?.reads) return;
      const handler = route.handler as RouteHandlerMethod;
      route.handler = async function readAgainFromThePrimary(
        this: FastifyInstance,
        request: FastifyRequest,
        reply: FastifyReply,
      ) {
        if (request.reader === primary) return handler.call(this, request, reply);
        try {
          return await handler.call(this, request, reply);
        } catch (error) {
          // Only a read not yet answered, and never a refusal: that is the answer.
          if (reply.sent || isAppAnswer(error)) throw error;
          // The replica refused the read (a conflict with its recovery, a cancelled statement) or its connection
          // failed: reads go to the primary for a while.
          if (sqlStateOf(error) !== undefined || isSwitchover(error)) router.failed(error);
          request.reader = primary;
          return handler.call(this, request, reply);
        }
      };
    });

    api.addHook('preHandler', async (request) => {
      const needs = request.auth?.wal;
      // A read without a session (a public look-up) has no primary position to measure the replica against.
      if (!needs || !replicaMayAnswer(request)) return;
      const replica = await router.choose(needs);
      if (replica) request.reader = replica;
    });

    api.addHook('onSend', async (request, reply, payload) => {
      const auth = request.auth;
      if (auth && reply.statusCode < 400 && !READ_METHODS.has(request.method)) {
        try {
          await recordSessionWrite(primary, auth.tokenHash);
        } catch (error) {
          // The write itself succeeded: its answer goes out; this person's reads may see the replica's older
          // state until it replays the write.
          request.log.error(
            { err: error },
            'Could not record the write position on the session (read-your-writes)',
          );
        }
      }
      return payload;
    });
  },
  { name: 'read-routing' },
);
