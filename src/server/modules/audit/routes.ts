import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AUDIT_MSG, auditFilterSchema } from '../../../shared/schemas/audit';
import { listEnvelope, wireAuditEntrySchema } from '../../../shared/wire';
import { badRequest } from '../../http/errors';
import { pagingQuery } from '../../http/paging';
import { guardedReport } from '../../http/session';
import { listAudit } from './queries';

const auditQuery = pagingQuery.and(auditFilterSchema);

/**
 * `GET audit/fetch` (ADMIN): the trail, newest first. There is no route that changes or deletes audit rows,
 * and the table refuses it anyway (an append-only trigger).
 */
export default async function auditRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/audit/fetch',
    guardedReport('audit', 'list', {
      tags: ['audit'],
      summary: 'The audit trail, newest first',
      querystring: auditQuery,
      response: { 200: listEnvelope('audit', wireAuditEntrySchema) },
    }),
    async (request) => {
      const q = request.query;
      if (q.from && q.to && q.from > q.to) throw badRequest(AUDIT_MSG.fromAfterTo, 'from');
      const { audit, total, capped } = await listAudit(request.reader, q, { page: q.page, limit: q.limit });
      return {
        result: { audit, totalCounts: total, ...(capped ? { totalCountsCapped: true as const } : {}) },
      };
    },
  );
}
