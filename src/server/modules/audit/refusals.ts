import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Actor, actorOf, recordRefusal } from './record';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who a refused call was made by, when the route knows better than the session (a typed user name). */
    auditActor: Actor | null;
  }
}

const messageOf = (payload: unknown) => {
  if (typeof payload !== 'string') return undefined;
  try {
    return (JSON.parse(payload) as { message?: unknown }).message;
  } catch {
    return undefined;
  }
};

/**
 * Records every 403 of its scope (`/api/v1`) in the audit trail: who (the session's user, even one refused for
 * its initial password), which route, and the refusal's message. Written before the answer leaves, outside any
 * transaction; a failure to record is logged and the refusal goes out unchanged.
 */
export const auditRefusals = fp(
  async (api: FastifyInstance) => {
    api.decorateRequest('auditActor', null);
    api.addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode !== 403) return payload;
      const identified = request.identifiedUser;
      const actor =
        request.auditActor ??
        (!request.auth && identified
          ? { id: identified.id, kind: 'USER' as const, name: identified.name, type: identified.type }
          : actorOf(request));
      await recordRefusal(api.db, request.log, actor, request.ip, {
        action: 'access.denied',
        entity: 'route',
        entityId: `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`,
        after: { message: messageOf(payload) ?? null },
      });
      return payload;
    });
  },
  { name: 'audit-refusals' },
);
