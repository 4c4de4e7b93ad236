import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { failover } from './failover';
import { inputGuard } from './input';
import { readRouting } from './reader';
import { sessionGuard } from './session';
import { xsrfGuard } from './xsrf';

/**
 * The cross-cutting guards of `/api/v1`, registered inside that scope (as fastify/demo registers its auth per
 * route folder): they run on whichever route answers, so no spelling of a path can slip past them.
 * Order per request: XSRF (onRequest), session (onRequest), input text (preValidation), then the route's own
 * role check (preValidation, after these), then the route's zod schemas (validation), then the read routing
 * (preHandler: which database a list or report reads, http/reader.ts). A call that may run twice runs again after a
 * failover of the primary (http/failover.ts, wrapping the route's handler).
 */
export const apiGuards = fp(
  async (api: FastifyInstance) => {
    await api.register(xsrfGuard);
    await api.register(sessionGuard);
    await api.register(inputGuard);
    await api.register(readRouting);
    await api.register(failover);
  },
  { name: 'api-guards' },
);
