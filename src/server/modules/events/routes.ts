import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MSG } from '../../../shared/messages';
import { sessions } from '../../db/schema';
import { unauthorized } from '../../http/errors';
import { documentedOnly } from '../../http/schemas';
import { caller } from '../../http/session';
import { EventBus, type Position, resumePosition, startEventPruning } from './bus';
import { EventStream } from './stream';

/** A Last-Event-ID the server gave: a positive whole number. Anything else is read as none. */
const EVENT_ID = /^[1-9]\d{0,15}$/;

/**
 * `GET events`: the signed-in person's server-sent event stream (issue 55). The bus (bus.ts) is one loop per server
 * over the `events` table; each stream is fed from it. Streams end when the server stops, so its close never waits
 * on them; old events are pruned by one server at a time (its runner lock).
 */
export default async function eventRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;
  const bus = new EventBus(db, app.log);
  const open = new Set<EventStream>();
  let stopPruning: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    stopPruning = startEventPruning(db, app.runners, app.log);
  });
  app.addHook('preClose', async () => {
    for (const stream of open) stream.end();
    bus.close();
  });
  app.addHook('onClose', async () => {
    await stopPruning?.();
  });

  app.get(
    '/events',
    {
      schema: {
        tags: ['events'],
        summary: 'The signed-in person’s event stream (text/event-stream)',
        description:
          'any signed-in person; events in its scope only: sale, approval, import, lead, settlement, session-ended. Last-Event-ID replays what was missed (events are kept 24 hours)',
        headers: documentedOnly(z.object({ 'last-event-id': z.string().optional() })),
      },
    },
    async (request, reply) => {
      const { user, tokenHash } = caller(request);
      const [session] = await db
        .select({ id: sessions.id, expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(eq(sessions.tokenHash, tokenHash));
      if (!session) throw unauthorized(MSG.invalidSession);
      const lastId = request.headers['last-event-id'];
      const from: Position | null =
        typeof lastId === 'string' && EVENT_ID.test(lastId.trim())
          ? await resumePosition(db, Number(lastId.trim()))
          : null;
      const stream = new EventStream(
        { id: user.id, type: user.type, path: user.path, sessionId: session.id },
        from,
        {
          expiresAt: session.expiresAt,
          onEnd: () => {
            open.delete(stream);
            bus.unsubscribe(stream);
          },
        },
      );
      open.add(stream);
      reply.raw.on('close', () => stream.end());
      try {
        await bus.subscribe(stream);
      } catch (error) {
        stream.end();
        throw error;
      }
      void stream.start(bus, from).catch((error) => {
        request.log.warn({ err: error }, 'The event stream could not replay the events missed');
        stream.end();
      });
      return (
        reply
          .type('text/event-stream; charset=utf-8')
          // Proxies that buffer answers (nginx) pass this one on as it is written.
          .header('x-accel-buffering', 'no')
          .send(stream.out)
      );
    },
  );
}
