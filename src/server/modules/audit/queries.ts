import { and, eq, getTableColumns, gte, lte } from 'drizzle-orm';
import type { AuditFilter } from '../../../shared/schemas/audit';
import type { WireAuditEntry } from '../../../shared/wire';
import { keyFields, listPage, type PageRequest } from '../../db/list';
import type { Queryable } from '../../db/open';
import { auditLog } from '../../db/schema';

type AuditRow = typeof auditLog.$inferSelect;

export const toWireAuditEntry = (row: AuditRow): WireAuditEntry => ({
  _id: row.id,
  actor: {
    _id: row.actorId,
    name: row.actorName,
    type: row.actorType as WireAuditEntry['actor']['type'],
    kind: row.actorKind as WireAuditEntry['actor']['kind'],
  },
  action: row.action,
  entity: row.entity,
  entityId: row.entityId,
  before: row.before as WireAuditEntry['before'],
  after: row.after as WireAuditEntry['after'],
  ip: row.ip,
  createdAt: row.createdAt.toISOString(),
});

/** `audit/fetch`: newest first, filtered by actor, entity, action and time (each filter has its index). */
export async function listAudit(q: Queryable, filter: AuditFilter, page: PageRequest) {
  const where = and(
    filter.userId ? eq(auditLog.actorId, filter.userId) : undefined,
    filter.entity ? eq(auditLog.entity, filter.entity) : undefined,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.from ? gte(auditLog.createdAt, filter.from) : undefined,
    filter.to ? lte(auditLog.createdAt, filter.to) : undefined,
  );
  const { rows, total, capped } = await listPage(q, {
    keys: (sortKey) => q.select(keyFields(auditLog.id, sortKey)).from(auditLog).$dynamic(),
    rows: (found, order) =>
      q
        .select(getTableColumns(auditLog))
        .from(found.keys)
        .innerJoin(auditLog, eq(auditLog.id, found.id))
        .orderBy(...order),
    where,
    page,
    sort: { columns: { createdAt: auditLog.createdAt }, default: 'createdAt', id: auditLog.id },
    total: 'capped',
  });
  return { audit: rows.map(toWireAuditEntry), total, capped };
}
