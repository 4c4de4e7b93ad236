import { paiseToRupees } from '../../../shared/money';
import type {
  ApprovalEventData,
  ImportEventData,
  LeadEventData,
  LiveEventKind,
  SaleEventData,
} from '../../../shared/schemas/events';
import type { Queryable } from '../../db/open';
import { events } from '../../db/schema';

/**
 * Who sees an event: the one session (`session`), or the person (`user`), staff (`staff`: all of them, admins only,
 * or none) and the tier users whose hierarchy path is a prefix of `network` (the record's own path).
 */
export interface Audience {
  network?: string | null;
  staff?: 'ALL' | 'ADMINS' | 'NONE';
  user?: string | null;
  session?: string;
}

/**
 * Writes an event in the caller's transaction (the change's own), so it is announced only if the change commits.
 * `body` is what is stored; what each reader is sent is made from it (bus.ts, dataFor).
 */
export async function raiseEvent(q: Queryable, kind: LiveEventKind, body: object, to: Audience) {
  await q.insert(events).values({
    kind,
    body,
    toNetwork: to.network ?? null,
    toStaff: to.staff ?? 'NONE',
    toUser: to.user ?? null,
    toSession: to.session ?? null,
  });
}

/** What a sale event is made from: the sale's row (its path, code and frozen shares). */
export interface SaleForEvent {
  id: string;
  utmCode: string;
  path: string;
  adminUserId: string;
  masterDistributorUserId: string;
  masterDistributorShare: number;
  distributorUserId: string;
  distributorShare: number;
  retailerUserId: string;
  retailerShare: number;
}

/** A sale's stored event: its wire data and each tier receiver's share, of which a reader is sent only its own. */
export type SaleEventBody = Omit<SaleEventData, 'commission'> & { commissions: Record<string, number> };

/**
 * A sale recorded or changed, to staff and to its network (the customer's path: its retailer, distributor and
 * master distributor). The shares of missing tiers went to the administrator, who is left out of `commissions`.
 */
export function saleChanged(q: Queryable, sale: SaleForEvent, status: SaleEventData['status']) {
  const commissions: Record<string, number> = {};
  for (const [user, paise] of [
    [sale.masterDistributorUserId, sale.masterDistributorShare],
    [sale.distributorUserId, sale.distributorShare],
    [sale.retailerUserId, sale.retailerShare],
  ] as const)
    if (user !== sale.adminUserId) commissions[user] = paiseToRupees(paise);
  const body: SaleEventBody = { id: sale.id, status, code: sale.utmCode, commissions };
  return raiseEvent(q, 'sale', body, { network: sale.path, staff: 'ALL' });
}

/** A command made or decided: to admins, who decide it, and to its maker. */
export const approvalChanged = (q: Queryable, command: ApprovalEventData) =>
  raiseEvent(q, 'approval', command, { staff: 'ADMINS', user: command.maker });

/** An import's progress or end: to staff, who may follow any import. */
export const importChanged = (q: Queryable, job: ImportEventData) =>
  raiseEvent(q, 'import', job, { staff: 'ALL' });

/** An application received or decided: to staff, who review them. */
export const leadChanged = (q: Queryable, lead: LeadEventData) =>
  raiseEvent(q, 'lead', lead, { staff: 'ALL' });

/** A user's commissions settled (`paise` moved to available): to staff, to the user and to its network above it. */
export const commissionsSettled = (q: Queryable, user: { id: string; path: string | null }, paise: bigint) =>
  raiseEvent(
    q,
    'settlement',
    { user: user.id, amount: paiseToRupees(paise) },
    { network: user.path, staff: 'ALL', user: user.id },
  );

/** Sessions ended by the server (signed out, a password changed, deactivated): each to its own stream only. */
export async function sessionsEnded(q: Queryable, sessionIds: readonly string[]) {
  if (sessionIds.length === 0) return;
  await q
    .insert(events)
    .values(sessionIds.map((id) => ({ kind: 'session-ended', body: {}, toStaff: 'NONE', toSession: id })));
}
