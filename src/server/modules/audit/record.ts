import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { AuditAction, AuditActorKind, AuditEntity } from '../../../shared/audit';
import type { Queryable, Tx } from '../../db/open';
import { runStatement } from '../../db/statements';
import { inTransaction } from '../../db/transaction';
import { changedFields } from './mask';

/** Who made a change: a signed-in user, the partner (signed callbacks), the system (jobs), or the public. */
export interface Actor {
  id: string | null;
  kind: AuditActorKind;
  name: string;
  type: number | null;
}

export const PARTNER: Actor = { id: null, kind: 'PARTNER', name: 'Partner', type: null };
export const SYSTEM: Actor = { id: null, kind: 'SYSTEM', name: 'System', type: null };
export const publicActor = (name = 'Anonymous'): Actor => ({ id: null, kind: 'PUBLIC', name, type: null });

/** The caller of a request: its signed-in user, or the public. */
export const actorOf = (request: FastifyRequest): Actor =>
  request.auth
    ? { id: request.auth.user.id, kind: 'USER', name: request.auth.user.name, type: request.auth.user.type }
    : publicActor();

/** What one command changed: the entity's id and its fields before and after (unmasked views). */
export interface Change {
  entityId: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

export interface AuditEvent extends Change {
  action: AuditAction;
  entity: AuditEntity;
}

/** Writes a command's audit row inside that command's own transaction, at the moment the command chooses. */
export type AuditRecorder = (tx: Tx, change: Change) => Promise<void>;

/** Inserts one audit row: only the changed fields, masked (mask.ts). */
export async function writeAudit(q: Queryable, actor: Actor, ip: string | null, event: AuditEvent) {
  const { before, after } = changedFields(event.before, event.after);
  await runStatement(q, INSERT_AUDIT, [
    actor.id,
    actor.kind,
    actor.name,
    actor.type,
    event.action,
    event.entity,
    event.entityId,
    before == null ? null : JSON.stringify(before),
    after == null ? null : JSON.stringify(after),
    ip,
  ]);
}

/** Every command writes one: hand-written, its text built once (db/statements.ts). */
const INSERT_AUDIT = `insert into audit_log (actor_id, actor_kind, actor_name, actor_type, action, entity, entity_id, before, after, ip)
    values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10)`;

export const auditRecorder =
  (actor: Actor, ip: string | null, action: AuditAction, entity: AuditEntity): AuditRecorder =>
  (tx, change) =>
    writeAudit(tx, actor, ip, { action, entity, ...change });

/** The recorder of a request's command: its caller and address. */
export const requestRecorder = (request: FastifyRequest, action: AuditAction, entity: AuditEntity) =>
  auditRecorder(actorOf(request), request.ip, action, entity);

/**
 * Fineract's "every change is a command": runs `work` in one transaction (joining the caller's when there is
 * one; deadlock victims retried, see db/transaction.ts), writes the audit row of what it changed in that same
 * transaction, and answers the work's result. Nothing is recorded when the work refuses (it throws).
 */
export function runCommand<T>(
  request: FastifyRequest,
  what: { action: AuditAction; entity: AuditEntity },
  work: (tx: Tx) => Promise<Change & { result: T }>,
): Promise<T> {
  const record = requestRecorder(request, what.action, what.entity);
  return inTransaction(request.server.db, async (tx) => {
    const { result, ...change } = await work(tx);
    await record(tx, change);
    return result;
  });
}

/**
 * A refusal worth keeping (a failed password, a 403): written on its own, outside any transaction (the refused
 * call wrote nothing). A failure here is logged and never changes the refusal's answer.
 */
export async function recordRefusal(
  q: Queryable,
  log: FastifyBaseLogger,
  actor: Actor,
  ip: string | null,
  event: AuditEvent,
) {
  try {
    await writeAudit(q, actor, ip, event);
  } catch (error) {
    log.warn({ err: error }, 'recording a refusal in the audit trail failed');
  }
}
