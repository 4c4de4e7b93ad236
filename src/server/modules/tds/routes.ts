import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_TYPES, type UserType } from '../../../shared/enums';
import { paiseToRupees } from '../../../shared/money';
import {
  TDS_MSG,
  tdsCertificateQuerySchema,
  tdsCertificateSchema,
  tdsDepositResultSchema,
  tdsDepositSchemaFor,
  tdsDepositsResultSchema,
  tdsFetchQuerySchema,
  tdsFetchResultSchema,
  tdsPeriodQuerySchema,
  tdsQuartersQuerySchema,
  tdsQuartersResultSchema,
} from '../../../shared/schemas/tds';
import { envelope } from '../../../shared/wire';
import { sendFile } from '../../http/download';
import { notFound } from '../../http/errors';
import { caller, guarded, guardedReport } from '../../http/session';
import { requestRecorder } from '../audit/index';
import { tdsCertificatePdf } from '../documents/index';
import {
  recordTdsDeposit,
  tdsCertificate,
  tdsDeposits,
  tdsQuarter,
  tdsQuarterCsv,
  tdsQuarters,
} from './reports';

const tags = ['tds'];

/** India's calendar day now (YYYY-MM-DD): a challan cannot be dated later. */
const indiaToday = () => new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);

/**
 * The deductee a call is about, from the session: a tier user reads only its own quarters and certificates (another's
 * is as if it did not exist); staff read anyone's. Left out, the caller itself.
 */
function ownDeductee(request: FastifyRequest, userId: string | undefined): string {
  const { user } = caller(request);
  if (userId === undefined) return user.id;
  if (!STAFF_TYPES.includes(user.type as UserType) && userId !== user.id)
    throw notFound(TDS_MSG.userNotFound);
  return userId;
}

/** TDS under section 194H (issue 43): deposits against TDS payable, the quarter's deductees, certificates. */
export default async function tdsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;
  const tds = app.config.tds;

  app.post(
    '/tds/deposit',
    guarded('tds', 'edit', {
      tags,
      summary: 'Record a challan deposited against TDS payable (the same challan again answers the first)',
      body: tdsDepositSchemaFor(app.config.maxAmountPaise, indiaToday),
      response: { 200: envelope(tdsDepositResultSchema) },
    }),
    async (request) => {
      const { entry, payable, replay } = await recordTdsDeposit(
        db,
        caller(request).user.id,
        request.body,
        requestRecorder(request, 'tds.deposit', 'tdsDeposit'),
      );
      return {
        result: {
          _id: entry.id,
          bsrCode: entry.bsrCode ?? '',
          challanSerial: entry.challanSerial ?? '',
          date: entry.depositedOn ?? '',
          amount: paiseToRupees(entry.amountPaise),
          tdsPayable: paiseToRupees(payable),
          createdAt: entry.createdAt.toISOString(),
        },
        message: replay ? TDS_MSG.depositReplayed : TDS_MSG.depositRecorded,
      };
    },
  );

  app.get(
    '/tds/fetch',
    guardedReport('tds', 'list', {
      tags,
      summary: "A quarter's deductees (Form 26Q's deductee columns); format=csv for a file",
      querystring: tdsFetchQuerySchema,
      response: { 200: envelope(tdsFetchResultSchema) },
    }),
    async (request, reply) => {
      const { fy, quarter, format } = request.query;
      const report = await tdsQuarter(request.reader, tds, fy, quarter);
      if (format === 'csv') return sendFile(reply, `tds-${fy}-${quarter}.csv`, tdsQuarterCsv(report));
      return { result: report };
    },
  );

  app.get(
    '/tds/deposits',
    guardedReport('tds', 'list', {
      tags,
      summary: 'The challans deposited against TDS payable with a date in a quarter, and TDS payable now',
      querystring: tdsPeriodQuerySchema,
      response: { 200: envelope(tdsDepositsResultSchema) },
    }),
    async (request) => ({
      result: await tdsDeposits(request.reader, request.query.fy, request.query.quarter),
    }),
  );

  app.get(
    '/tds/quarters',
    guardedReport('tdsCertificate', 'read', {
      tags,
      summary:
        "A deductee's quarters with commission or tax, newest first (a tier user: its own, userId left out)",
      querystring: tdsQuartersQuerySchema,
      response: { 200: envelope(tdsQuartersResultSchema) },
    }),
    async (request) => ({
      result: await tdsQuarters(request.reader, ownDeductee(request, request.query.userId), tds),
    }),
  );

  app.get(
    '/tds/certificate',
    guardedReport('tdsCertificate', 'read', {
      tags,
      summary:
        "One deductee's certificate for a quarter (Form 16A's data): JSON, or format=pdf in English or Hindi (lang=en|hi)",
      querystring: tdsCertificateQuerySchema,
      response: { 200: envelope(tdsCertificateSchema) },
    }),
    async (request, reply) => {
      const { fy, quarter, format, lang } = request.query;
      const userId = ownDeductee(request, request.query.userId);
      const certificate = await tdsCertificate(request.reader, userId, fy, quarter, tds);
      if (format === 'pdf')
        return sendFile(
          reply,
          `tds-certificate-${fy}-${quarter}.pdf`,
          await tdsCertificatePdf(certificate, lang),
        );
      return { result: certificate };
    },
  );
}
