import path from 'node:path';
import multipart from '@fastify/multipart';
import contentDisposition from 'content-disposition';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { maskAadhar } from '../../../shared/identity';
import {
  approveLeadSchema,
  LEAD_FILES,
  LEAD_MAX_REQUEST_BYTES,
  LEAD_MSG,
  LEADS_PER_IP_PER_HOUR,
  type LeadFileField,
  rejectLeadSchema,
} from '../../../shared/schemas/leads';
import { envelope, listEnvelope, wireLeadSchema, wireUserSchema } from '../../../shared/wire';
import { leads } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { HttpError, notFound } from '../../http/errors';
import { multipartOptions } from '../../http/multipart';
import { idParam } from '../../http/params';
import { listReads } from '../../http/reader';
import { documentedOnly } from '../../http/schemas';
import { guarded } from '../../http/session';
import { peopleService } from '../account/index';
import { auditRecorder, publicActor } from '../audit/index';
import { leadChanged } from '../events/index';
import { readStoredFile, storedFile, storeFile } from '../files/index';
import { checkLocationChain } from '../locations/index';
import { receiveLead, validateParts } from './intake';
import { leadById, leadListQuery, leadView, listLeads } from './queries';
import { approveLead, rejectLead } from './review';

/**
 * Onboarding applications: the public form (`leads/create`), and their review by staff (list, files,
 * approve and reject in review.ts). Their SQL lives in queries.ts, the multipart intake in intake.ts, the files
 * (stored in the database) in files.ts.
 */
const tags = ['leads'];
const jsonPart = (what: string) => z.string().describe(`JSON text: ${what}`);
/** For the document: the multipart parts; the route reads and judges them itself (intake.ts). */
const applicationParts = documentedOnly(
  z.object({
    applicantInfo: jsonPart('{ name, education, gender }'),
    businessInfo: jsonPart(
      '{ establishmentName, outletAddress, businessLandmark, pincode, stateId, districtId, tehsilId, mobile, telephone, email, ownershipType, yearsInLocation }',
    ),
    permanentAddress: jsonPart(
      '{ residentialAddress, landmark, permanentAddressPincode, permanentStateId, permanentDistrictId, permanentTehsilId, permanentMobile, permanentTelephone, permanentEmail }',
    ),
    otherBusinessInfo: jsonPart('{ outletDescription, similarServiceDetails, panNumber, aadharNumber }'),
    bankInfo: jsonPart('{ bankName, accountNumber, ifscCode }'),
    identityProof: jsonPart('{ type: AADHAR | PAN | VOTERID | DL | OTHER, documentNumber }'),
    leadType: z.enum(['RETAILER', 'DISTRIBUTOR']),
    picture: z.string().meta({ format: 'binary' }).describe('JPEG, PNG or WebP, at most 2 MB'),
    document: z.string().meta({ format: 'binary' }).describe('PDF, JPEG or PNG, at most 5 MB'),
  }),
);
const decided = z.strictObject({
  _id: z.string(),
  status: z.string(),
  userId: z.string(),
  user: wireUserSchema,
});

export default async function leadRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config, cipher } = app;
  const uploadsDir = path.join(config.dataDir, 'uploads');
  const people = peopleService({ db, config, cipher });

  // The upload is read in the handler, part by part (http/multipart.ts); only this module's routes take one.
  await app.register(multipart, multipartOptions);

  // Public: the onboarding form. Capped before parsing, limited per address (counted in PostgreSQL, so across
  // every server: a spam limit, not an account lock), all or nothing.
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
      schema: {
        tags,
        summary: 'Apply to join the network (the public onboarding form)',
        description: 'public (10 an hour per address)',
        consumes: ['multipart/form-data'],
        body: applicationParts,
        response: { 200: envelope(z.strictObject({ _id: z.string() })) },
      },
      onRequest: async (request) => {
        const length = Number(request.headers['content-length'] ?? 0);
        if (length > LEAD_MAX_REQUEST_BYTES)
          throw new HttpError(413, LEAD_MSG.requestTooLarge, undefined, { connection: 'close' });
      },
    },
    async (request) => {
      const received = await receiveLead(request, uploadsDir, config.uploadIdleTimeoutMs);
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
        const applicant = publicActor(sections.applicantInfo.name);
        // The files and the application are one transaction: a refused or failed write leaves no file stored.
        const row = await inTransaction(db, async (tx) => {
          const pictureFile = await storeFile(tx, {
            source: picture.path,
            contentType: picture.mime!,
            size: picture.size,
          });
          const documentFile = await storeFile(tx, {
            source: document.path,
            contentType: document.mime!,
            size: document.size,
          });
          const [inserted] = await tx
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
            .returning();
          await auditRecorder(
            applicant,
            request.ip,
            'lead.create',
            'lead',
          )(tx, {
            entityId: inserted.id,
            after: leadView(inserted),
          });
          await leadChanged(tx, { id: inserted.id, status: 'NEW' });
          return inserted;
        });
        return { result: { _id: row.id }, message: LEAD_MSG.thankYou };
      } finally {
        await received.discard();
      }
    },
  );

  // Review: staff only.
  app.get(
    '/leads/fetch',
    {
      ...guarded('leads', 'list', {
        tags,
        summary: 'Applications, or one with its sections and files (_id)',
        querystring: leadListQuery,
        response: { 200: listEnvelope('leads', wireLeadSchema) },
      }),
      config: listReads(),
    },
    async (request) => {
      const { leads, total } = await listLeads(request.reader, request.query);
      return { result: { leads, totalCounts: total } };
    },
  );

  // Files go only to signed-in staff, never to the public; served as downloads the browser must not sniff,
  // streamed from the database a chunk at a time (files.ts), whichever server took them.
  for (const field of Object.keys(LEAD_FILES) as LeadFileField[]) {
    app.get(
      `/leads/:id/${field}`,
      guarded('leads', 'list', {
        tags,
        summary: `An application's ${field} (its own bytes and type)`,
        params: idParam,
      }),
      async (request, reply) => {
        const { id } = request.params;
        const row = await leadById(db, id);
        if (!row) throw notFound(LEAD_MSG.leadNotFound);
        const file = await storedFile(db, field === 'picture' ? row.pictureFile : row.documentFile);
        if (!file) throw notFound('File not found');
        // RFC 6266: an ASCII fallback name plus the UTF-8 original (Hindi, Chinese, emoji) in filename*.
        const disposition = contentDisposition(field === 'document' ? row.documentName : 'picture', {
          type: 'inline',
        });
        return reply
          .header('content-type', field === 'picture' ? row.pictureMime : row.documentMime)
          .header('x-content-type-options', 'nosniff')
          .header('content-disposition', disposition)
          .header('content-length', file.size)
          .send(readStoredFile(db, file));
      },
    );
  }

  app.post(
    '/leads/approve/:id',
    guarded('leads', 'edit', {
      tags,
      summary: 'Approve an application: creates its tier user',
      params: idParam,
      body: approveLeadSchema,
      response: { 200: envelope(decided) },
    }),
    async (request) => approveLead(request, people, request.params.id, request.body),
  );

  app.post(
    '/leads/reject/:id',
    guarded('leads', 'edit', {
      tags,
      summary: 'Reject an application with a reason',
      params: idParam,
      body: rejectLeadSchema,
      response: {
        200: envelope(
          z.strictObject({ _id: z.string(), status: z.string(), rejectReason: z.string().nullable() }),
        ),
      },
    }),
    async (request) => {
      const row = await rejectLead(request, request.params.id, request.body.reason);
      return {
        result: { _id: row.id, status: row.status, rejectReason: row.rejectReason },
        message: LEAD_MSG.rejected,
      };
    },
  );
}
