import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { statementQuerySchema, statementSchema } from '../../../shared/schemas/statements';
import { envelope } from '../../../shared/wire';
import { sendFile } from '../../http/download';
import { caller, guardedReport } from '../../http/session';
import { statementPdf } from '../documents/index';
import { statementCsv, toWireStatement } from './documents';
import { monthStatement, statementOwner } from './queries';

const tags = ['statements'];

/** Monthly statements (issue 43): a tier user's own, or any in a staff member's network; JSON, CSV or PDF. */
export default async function statementRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/statements/fetch',
    guardedReport('statements', 'read', {
      tags,
      summary:
        "A tier user's month (India's calendar): opening and closing balances and every posting; format=csv or pdf for a file, the PDF in English or Hindi (lang=en|hi)",
      querystring: statementQuerySchema,
      response: { 200: envelope(statementSchema) },
    }),
    async (request, reply) => {
      const { userId, month, format, lang } = request.query;
      const owner = await statementOwner(request.reader, caller(request).user, userId);
      const statement = await monthStatement(request.reader, owner, month);
      const file = `statement-${month}`;
      if (format === 'csv') return sendFile(reply, `${file}.csv`, statementCsv(statement));
      if (format === 'pdf') return sendFile(reply, `${file}.pdf`, await statementPdf(statement, lang));
      return { result: toWireStatement(statement) };
    },
  );
}
