import { and, eq, ilike, or } from 'drizzle-orm';
import { z } from 'zod';
import { LEAD_MSG, LEAD_STATUSES, LEAD_TYPES, type LeadSections } from '../../../shared/schemas/leads';
import { keyFields, listPage } from '../../db/list';
import type { Queryable } from '../../db/open';
import { districts, leads, states, tehsils } from '../../db/schema';
import { likePattern } from '../../db/search';
import { pagingQuery } from '../../http/paging';
import { optionalFilter, optionalUuid } from '../../http/params';

export type LeadRow = typeof leads.$inferSelect;

/** `GET leads/fetch`: the list query plus type and status, or `_id` for one application. */
export const leadListQuery = pagingQuery.and(
  z.object({
    _id: optionalUuid('Invalid id'),
    leadType: optionalFilter(z.enum(LEAD_TYPES, { error: LEAD_MSG.invalidLeadType })),
    status: optionalFilter(z.enum(LEAD_STATUSES, { error: 'Status must be NEW, APPROVED or REJECTED' })),
  }),
);
export type LeadListQuery = z.infer<typeof leadListQuery>;

type Names = { state?: string | null; district?: string | null; tehsil?: string | null };

/** An application on the wire: the list columns, and with `full` the six sections (Aadhar masked) and files. */
export const toWireLead = (row: LeadRow, names: Names, full: boolean) => ({
  _id: row.id,
  leadType: row.leadType,
  status: row.status,
  applicantName: row.applicantName,
  establishmentName: row.establishmentName,
  mobile: row.mobile,
  state: [{ _id: row.stateId, name: names.state ?? '' }],
  district: [{ _id: row.districtId, name: names.district ?? '' }],
  tehsil: [{ _id: row.tehsilId, name: names.tehsil ?? '' }],
  userId: row.userId,
  decidedBy: row.decidedBy,
  decidedAt: row.decidedAt?.toISOString() ?? null,
  rejectReason: row.rejectReason,
  createdAt: row.createdAt.toISOString(),
  ...(full
    ? {
        // Stored with every Aadhar number already masked.
        ...(row.sections as LeadSections),
        picture: { mime: row.pictureMime, size: row.pictureSize, url: `leads/${row.id}/picture` },
        document: {
          mime: row.documentMime,
          size: row.documentSize,
          name: row.documentName,
          url: `leads/${row.id}/document`,
        },
      }
    : {}),
});

/** A page of applications (newest first), searched by applicant, establishment or mobile. */
export async function listLeads(q: Queryable, query: LeadListQuery) {
  const where = and(
    query._id ? eq(leads.id, query._id) : undefined,
    query.leadType ? eq(leads.leadType, query.leadType) : undefined,
    query.status ? eq(leads.status, query.status) : undefined,
    query.searchText
      ? or(
          ilike(leads.applicantName, likePattern(query.searchText)),
          ilike(leads.establishmentName, likePattern(query.searchText)),
          ilike(leads.mobile, likePattern(query.searchText)),
        )
      : undefined,
  );
  const { rows, total } = await listPage(q, {
    keys: (sortKey) => q.select(keyFields(leads.id, sortKey)).from(leads).$dynamic(),
    rows: (page, order, total) =>
      q
        .select({
          total,
          lead: leads,
          state: states.name,
          district: districts.name,
          tehsil: tehsils.name,
        })
        .from(page.keys)
        .innerJoin(leads, eq(leads.id, page.id))
        .leftJoin(states, eq(states.id, leads.stateId))
        .leftJoin(districts, eq(districts.id, leads.districtId))
        .leftJoin(tehsils, eq(tehsils.id, leads.tehsilId))
        .orderBy(...order),
    where,
    page: query,
    sort: { columns: { createdAt: leads.createdAt }, default: 'createdAt', id: leads.id },
    total: 'exact',
  });
  return { leads: rows.map((r) => toWireLead(r.lead, r, !!query._id)), total };
}

/** One application row, or undefined. */
export async function leadById(q: Queryable, id: string) {
  const [row] = await q.select().from(leads).where(eq(leads.id, id));
  return row;
}

/** What the audit trail records of an application: its decision columns and list columns, never the sections. */
export const leadView = (row: Partial<LeadRow> | null | undefined) =>
  row
    ? {
        leadType: row.leadType,
        status: row.status,
        applicantName: row.applicantName,
        establishmentName: row.establishmentName,
        mobile: row.mobile,
        stateId: row.stateId,
        districtId: row.districtId,
        tehsilId: row.tehsilId,
        userId: row.userId,
        decidedBy: row.decidedBy,
        rejectReason: row.rejectReason,
      }
    : null;
