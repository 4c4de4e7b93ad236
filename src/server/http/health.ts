import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

/**
 * How long `GET /healthz` waits for the primary to answer `select 1` before it answers 503: a database that hangs
 * (rather than refusing) must not hang the load balancer's check with it.
 */
export const HEALTH_TIMEOUT_MS = 2_000;

/**
 * `GET /healthz`, outside /api: 200 `{"status":"ok"}` when the primary database answers `select 1` within
 * HEALTH_TIMEOUT_MS, 503 `{"status":"unavailable"}` when it fails or does not answer in time. For a load balancer's
 * health check (HAProxy's `option httpchk`): no session, no XSRF (a GET), no rate limit, and no request log at info,
 * which at a check every few seconds from every balancer would drown the rest. Checks that arrive while one is under
 * way share its query, so a hung database holds at most one connection for them.
 */
export async function healthRoute(app: FastifyInstance) {
  let checking: Promise<boolean> | null = null;
  const primaryAnswers = () => {
    checking ??= app.db
      .execute(sql`select 1`)
      .then(
        () => true,
        () => false,
      )
      .finally(() => {
        checking = null;
      });
    return checking;
  };
  const withinBound = async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), HEALTH_TIMEOUT_MS);
    });
    try {
      return await Promise.race([primaryAnswers(), late]);
    } finally {
      clearTimeout(timer);
    }
  };
  app.get('/healthz', { logLevel: 'warn' }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (await withinBound()) return { status: 'ok' };
    return reply.code(503).send({ status: 'unavailable' });
  });
}
