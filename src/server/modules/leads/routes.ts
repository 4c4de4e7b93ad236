import fs from 'node:fs';
import path from 'node:path';
import contentDisposition from 'content-disposition';
import { and, count, desc, eq, ilike, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { UserType } from '../../../shared/enums';
import { maskAadhar } from '../../../shared/identity';
import { MSG } from '../../../shared/messages';
import {
  approveLeadSchema,
  LEAD_FILES,
  LEAD_JSON_PARTS,
  LEAD_MAX_REQUEST_BYTES,
  LEAD_MSG,
  LEAD_STATUSES,
  LEAD_TYPES,
  LEADS_PER_IP_PER_HOUR,
  type LeadFileField,
  type LeadSections,
  leadPartSchemas,
  leadTypeSchema,
  rejectLeadSchema,
} from '../../../shared/schemas/leads';
import { districts, leads, states, tehsils } from '../../db/schema';
import { badRequest, conflict, HttpError, notFound, parseInput, zodToHttpError } from '../../http/errors';
import { likePattern, offsetOf, pagingQuery } from '../../http/paging';
import { idParam, optionalFilter, optionalUuid } from '../../http/params';
import { caller, requireRole } from '../../http/session';
import { peopleService } from '../account/people';
import { checkLocationChain } from '../locations/queries';
import { keepFile, type ReceivedLead, receiveLead } from './intake';

type LeadRow = typeof leads.$inferSelect;

const listQuery = pagingQuery.and(
  z.object({
    _id: optionalUuid('Invalid id'),
    leadType: optionalFilter(z.enum(LEAD_TYPES, { error: LEAD_MSG.invalidLeadType })),
    status: optionalFilter(z.enum(LEAD_STATUSES, { error: 'Status must be NEW, APPROVED or REJECTED' })),
  }),
);

/** Parses and validates every part; errors carry `<part>.<field>` so the form can point at them. */
function validateParts(received: ReceivedLead) {
  const missing: { msg: string; param: string }[] = LEAD_JSON_PARTS.filter(
    (part) => !received.fields.has(part),
  ).map((part) => ({
    msg: LEAD_MSG.missingPart(part),
    param: part,
  }));
  if (!received.fields.has('leadType'))
    missing.push({ msg: LEAD_MSG.missingPart('leadType'), param: 'leadType' });
  if (!received.files.get('picture')?.size) missing.push({ msg: LEAD_MSG.photoRequired, param: 'picture' });
  if (!received.files.get('document')?.size)
    missing.push({ msg: LEAD_MSG.documentRequired, param: 'document' });
  if (missing.length) throw new HttpError(400, LEAD_MSG.allRequired, missing);

  const sections: Record<string, unknown> = {};
  const errors: { msg: string; param: string }[] = [];
  for (const part of LEAD_JSON_PARTS) {
    let value: unknown;
    try {
      value = JSON.parse(received.fields.get(part)!);
    } catch {
      throw badRequest(LEAD_MSG.badJson(part), part);
    }
    const parsed = leadPartSchemas[part].safeParse(value);
    if (parsed.success) sections[part] = parsed.data;
    else
      errors.push(
        ...(zodToHttpError(parsed.error).errors ?? []).map((e) => ({ ...e, param: `${part}.${e.param}` })),
      );
  }
  const leadType = leadTypeSchema.safeParse(received.fields.get('leadType'));
  if (!leadType.success) errors.push({ msg: LEAD_MSG.invalidLeadType, param: 'leadType' });
  if (errors.length) throw new HttpError(400, MSG.validationFailed, errors);

  for (const field of Object.keys(LEAD_FILES) as LeadFileField[]) {
    const file = received.files.get(field)!;
    if (!file.mime || !(LEAD_FILES[field].mimes as readonly string[]).includes(file.mime)) {
      throw new HttpError(415, LEAD_MSG.fileType(field), [{ msg: LEAD_MSG.fileType(field), param: field }]);
    }
  }
  return { sections: sections as LeadSections, leadType: leadType.data! };
}

export default async function leadRoutes(app: FastifyInstance) {
  const { db, config, cipher } = app;
  const uploadsDir = path.join(config.dataDir, 'uploads');
  const people = peopleService({ db, config, cipher });

  // busboy reads the body in the handler (http/multipart.ts); Fastify only has to let it through.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));

  // Public: the onboarding form. Capped before parsing, limited per address (in memory, per server: a spam
  // limit, not an account lock), all or nothing.
  app.post(
    '/leads/create',
    {
      config: {
        access: 'public',
        rateLimit: {
          max: LEADS_PER_IP_PER_HOUR,
          timeWindow: 3_600_000,
          errorResponseBuilder: () => new HttpError(429, LEAD_MSG.rateLimited),
        },
      },
      onRequest: async (request) => {
        const length = Number(request.headers['content-length'] ?? 0);
        if (length > LEAD_MAX_REQUEST_BYTES)
          throw new HttpError(413, LEAD_MSG.requestTooLarge, undefined, { connection: 'close' });
      },
    },
    async (request) => {
      const received = await receiveLead(request, uploadsDir, config.uploadIdleTimeoutMs);
      const kept: string[] = [];
      try {
        const { sections, leadType } = validateParts(received);
        const b = sections.businessInfo;
        const p = sections.permanentAddress;
        await checkLocationChain(db, {
          state: { id: b.stateId, param: 'businessInfo.stateId' },
          district: { id: b.districtId, param: 'businessInfo.districtId' },
          tehsil: { id: b.tehsilId, param: 'businessInfo.tehsilId' },
        });
        await checkLocationChain(db, {
          state: { id: p.permanentStateId, param: 'permanentAddress.permanentStateId' },
          district: { id: p.permanentDistrictId, param: 'permanentAddress.permanentDistrictId' },
          tehsil: { id: p.permanentTehsilId, param: 'permanentAddress.permanentTehsilId' },
        });
        const picture = received.files.get('picture')!;
        const document = received.files.get('document')!;
        const pictureFile = await keepFile(picture, uploadsDir);
        kept.push(pictureFile);
        const documentFile = await keepFile(document, uploadsDir);
        kept.push(documentFile);
        const aadhar = sections.otherBusinessInfo.aadharNumber;
        const proof = sections.identityProof;
        const aadharProof = proof.type === 'AADHAR';
        const stored = {
          ...sections,
          // Aadhar numbers live only in the encrypted columns; the sections keep the masked form.
          otherBusinessInfo: { ...sections.otherBusinessInfo, aadharNumber: maskAadhar(aadhar.slice(-4)) },
          identityProof: aadharProof
            ? { ...proof, documentNumber: maskAadhar(proof.documentNumber.slice(-4)) }
            : proof,
        };
        const [row] = await db
          .insert(leads)
          .values({
            leadType,
            applicantName: sections.applicantInfo.name,
            establishmentName: b.establishmentName,
            mobile: b.mobile,
            stateId: b.stateId,
            districtId: b.districtId,
            tehsilId: b.tehsilId,
            sections: stored,
            aadharCipher: cipher.encrypt(aadhar),
            aadharHash: cipher.searchHash(aadhar),
            aadharLast4: aadhar.slice(-4),
            identityNumberCipher: aadharProof ? cipher.encrypt(proof.documentNumber) : null,
            pictureFile,
            pictureMime: picture.mime!,
            pictureSize: picture.size,
            documentFile,
            documentMime: document.mime!,
            documentSize: document.size,
            documentName: document.originalName.slice(0, 200),
          })
          .returning({ id: leads.id });
        return { result: { _id: row.id }, message: LEAD_MSG.thankYou };
      } catch (error) {
        await received.discard();
        await Promise.all(kept.map((name) => fs.promises.rm(path.join(uploadsDir, name), { force: true })));
        throw error;
      }
    },
  );

  // Review: staff only.
  const staffRead = { preHandler: requireRole('leads', 'list') };

  const toWireLead = (
    row: LeadRow,
    names: { state?: string | null; district?: string | null; tehsil?: string | null },
    full: boolean,
  ) => ({
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

  app.get('/leads/fetch', staffRead, async (request) => {
    const q = parseInput(listQuery, request.query);
    const where = and(
      q._id ? eq(leads.id, q._id) : undefined,
      q.leadType ? eq(leads.leadType, q.leadType) : undefined,
      q.status ? eq(leads.status, q.status) : undefined,
      q.searchText
        ? or(
            ilike(leads.applicantName, likePattern(q.searchText)),
            ilike(leads.establishmentName, likePattern(q.searchText)),
            ilike(leads.mobile, likePattern(q.searchText)),
          )
        : undefined,
    );
    const [rows, [total]] = await Promise.all([
      db
        .select({ lead: leads, state: states.name, district: districts.name, tehsil: tehsils.name })
        .from(leads)
        .leftJoin(states, eq(states.id, leads.stateId))
        .leftJoin(districts, eq(districts.id, leads.districtId))
        .leftJoin(tehsils, eq(tehsils.id, leads.tehsilId))
        .where(where)
        .orderBy(desc(leads.createdAt), desc(leads.id))
        .limit(q.limit)
        .offset(offsetOf(q)),
      db.select({ n: count() }).from(leads).where(where),
    ]);
    return { result: { leads: rows.map((r) => toWireLead(r.lead, r, !!q._id)), totalCounts: total.n } };
  });

  // Files go only to signed-in staff, never to the public; served as downloads the browser must not sniff.
  for (const field of Object.keys(LEAD_FILES) as LeadFileField[]) {
    app.get(`/leads/:id/${field}`, staffRead, async (request, reply) => {
      const { id } = parseInput(idParam, request.params);
      const [row] = await db.select().from(leads).where(eq(leads.id, id));
      if (!row) throw notFound(LEAD_MSG.leadNotFound);
      const name = field === 'picture' ? row.pictureFile : row.documentFile;
      const file = path.join(uploadsDir, name);
      if (!fs.existsSync(file)) throw notFound('File not found');
      // RFC 6266: an ASCII fallback name plus the UTF-8 original (Hindi, Chinese, emoji) in filename*.
      const disposition = contentDisposition(field === 'document' ? row.documentName : 'picture', {
        type: 'inline',
      });
      return reply
        .header('content-type', field === 'picture' ? row.pictureMime : row.documentMime)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', disposition)
        .send(fs.createReadStream(file));
    });
  }

  /** Marks a NEW lead decided, or explains why it cannot be. Runs inside the deciding transaction. */
  const decide = async (
    tx: Parameters<Parameters<typeof db.transaction>[0]>[0],
    id: string,
    values: Partial<typeof leads.$inferInsert>,
  ) => {
    const [row] = await tx
      .update(leads)
      .set({ ...values, decidedAt: new Date() })
      .where(and(eq(leads.id, id), eq(leads.status, 'NEW')))
      .returning();
    if (row) return row;
    const [exists] = await tx.select({ id: leads.id }).from(leads).where(eq(leads.id, id));
    throw exists ? conflict(LEAD_MSG.alreadyDecided) : notFound(LEAD_MSG.leadNotFound);
  };

  app.post('/leads/approve/:id', { preHandler: requireRole('leads', 'edit') }, async (request) => {
    const { id } = parseInput(idParam, request.params);
    const { user } = caller(request);
    const input = parseInput(approveLeadSchema, request.body);
    return db.transaction(async (tx) => {
      const lead = await decide(tx, id, { status: 'APPROVED', decidedBy: user.id });
      const s = lead.sections as LeadSections;
      if (lead.leadType === 'RETAILER' && !input.distributorId)
        throw badRequest(MSG.required, 'distributorId');
      // The new tier user goes through the same rules and role matrix as one created by hand.
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
          distributor: { masterDistributorId: input.masterDistributorId },
          retailer: input.distributorId ? { distributorId: input.distributorId } : undefined,
        },
        tx,
      );
      await tx.update(leads).set({ userId: created.result._id }).where(eq(leads.id, id));
      return {
        result: { _id: id, status: 'APPROVED', userId: created.result._id, user: created.result },
        message: LEAD_MSG.approved,
      };
    });
  });

  app.post('/leads/reject/:id', { preHandler: requireRole('leads', 'edit') }, async (request) => {
    const { id } = parseInput(idParam, request.params);
    const { user } = caller(request);
    const { reason } = parseInput(rejectLeadSchema, request.body);
    const row = await db.transaction((tx) =>
      decide(tx, id, { status: 'REJECTED', decidedBy: user.id, rejectReason: reason }),
    );
    return {
      result: { _id: row.id, status: row.status, rejectReason: row.rejectReason },
      message: LEAD_MSG.rejected,
    };
  });
}
