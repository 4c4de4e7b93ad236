import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { UserType } from '../../../shared/enums';
import { MSG } from '../../../shared/messages';
import { LEAD_MSG, type LeadSections } from '../../../shared/schemas/leads';
import type { Tx } from '../../db/open';
import { leads } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../http/errors';
import { caller } from '../../http/session';
import type { peopleService } from '../account/index';
import { runCommand } from '../audit/index';
import { leadChanged } from '../events/index';
import { type LeadRow, leadView } from './queries';

/** Marks a NEW application decided, or explains why it cannot be. Runs inside the deciding transaction. */
async function decide(tx: Tx, id: string, values: Partial<typeof leads.$inferInsert>) {
  // Locked and read first, for the trail's "before" and so two deciders queue on the row.
  const [before] = await tx.select().from(leads).where(eq(leads.id, id)).for('update');
  if (!before) throw notFound(LEAD_MSG.leadNotFound);
  const [row] = await tx
    .update(leads)
    .set({ ...values, decidedAt: new Date() })
    .where(and(eq(leads.id, id), eq(leads.status, 'NEW')))
    .returning();
  if (!row) throw conflict(LEAD_MSG.alreadyDecided);
  await leadChanged(tx, { id, status: row.status as 'APPROVED' | 'REJECTED' });
  return { before, row };
}

/**
 * `leads/approve/{id}`: creates the tier user from the application through the same rules and role table as
 * `account/create`, in the same transaction as the decision and its audit row (one row: `lead.approve`, whose
 * `after` names the new user).
 */
export function approveLead(
  request: FastifyRequest,
  people: ReturnType<typeof peopleService>,
  id: string,
  input: { masterDistributorId: string; distributorId?: string },
) {
  const { user } = caller(request);
  return runCommand(request, { action: 'lead.approve', entity: 'lead' }, async (tx) => {
    const { before, row: lead } = await decide(tx, id, { status: 'APPROVED', decidedBy: user.id });
    const s = lead.sections as LeadSections;
    if (lead.leadType === 'RETAILER' && !input.distributorId) throw badRequest(MSG.required, 'distributorId');
    const created = await people.create(
      user,
      {
        type: lead.leadType === 'RETAILER' ? UserType.RETAILER : UserType.DISTRIBUTOR,
        name: s.applicantInfo.name,
        email: s.businessInfo.email,
        mobile: s.businessInfo.mobile,
        userName: s.businessInfo.mobile,
        districtId: s.businessInfo.districtId,
        tehsilId: s.businessInfo.tehsilId,
        panId: s.otherBusinessInfo?.panNumber ?? null,
        distributor: { masterDistributorId: input.masterDistributorId },
        retailer: input.distributorId ? { distributorId: input.distributorId } : undefined,
      },
      { q: tx },
    );
    const [after] = await tx
      .update(leads)
      .set({ userId: created.result._id })
      .where(eq(leads.id, id))
      .returning();
    return {
      entityId: id,
      before: leadView(before),
      after: leadView(after),
      result: {
        result: { _id: id, status: 'APPROVED', userId: created.result._id, user: created.result },
        message: LEAD_MSG.approved,
      },
    };
  });
}

/** `leads/reject/{id}`: records who rejected it, when and why. */
export function rejectLead(request: FastifyRequest, id: string, reason: string) {
  const { user } = caller(request);
  return runCommand(request, { action: 'lead.reject', entity: 'lead' }, async (tx) => {
    const { before, row } = await decide(tx, id, {
      status: 'REJECTED',
      decidedBy: user.id,
      rejectReason: reason,
    });
    return { entityId: id, before: leadView(before), after: leadView(row), result: row as LeadRow };
  });
}
