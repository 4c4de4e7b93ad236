import type { FastifyInstance } from 'fastify';
import { AUDIT_MSG, auditFilterSchema } from '../../../shared/schemas/audit';
import { badRequest, parseInput } from '../../http/errors';
import { pagingQuery } from '../../http/paging';
import { requireRole } from '../../http/session';
import { listAudit } from './queries';

const auditQuery = pagingQuery.and(auditFilterSchema);

/**
 * `GET audit/fetch` (ADMIN): the trail, newest first. There is no route that changes or deletes audit rows,
 * and the table refuses it anyway (an append-only trigger).
 */
export default async function auditRoutes(app: FastifyInstance) {
  app.get('/audit/fetch', { preHandler: requireRole('audit', 'list') }, async (request) => {
    const q = parseInput(auditQuery, request.query);
    if (q.from && q.to && q.from > q.to) throw badRequest(AUDIT_MSG.fromAfterTo, 'from');
    const { audit, total } = await listAudit(app.db, q, { page: q.page, limit: q.limit });
    return { result: { audit, totalCounts: total } };
  });
}
