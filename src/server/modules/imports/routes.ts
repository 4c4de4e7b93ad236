import contentDisposition from 'content-disposition';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UserType } from '../../../shared/enums';
import { can } from '../../../shared/roles';
import {
  IMPORT_COLUMNS,
  IMPORT_EXAMPLES,
  IMPORT_KINDS,
  IMPORT_MSG,
  IMPORT_RESOURCE,
  wireImportJobSchema,
} from '../../../shared/schemas/imports';
import { envelope } from '../../../shared/wire';
import { inTransaction } from '../../db/transaction';
import { csvText } from '../../http/csv';
import { forbidden, notFound } from '../../http/errors';
import { idParam } from '../../http/params';
import { documentedOnly } from '../../http/schemas';
import { caller, guarded } from '../../http/session';
import { recordSessionWrite } from '../../http/session-token';
import { peopleService } from '../account/index';
import { actorOf, auditRecorder } from '../audit/index';
import { exportRows } from './export';
import { csvLine, parseImport, receiveImport } from './file';
import { createJob, jobView } from './jobs';
import { importSettings, runImport } from './run';

const tags = ['imports'];
const kindParam = z.object({
  kind: z.string().refine((k) => (IMPORT_KINDS as readonly string[]).includes(k), {
    error: (issue) => IMPORT_MSG.unknownKind(String(issue.input)),
  }),
});
const importParts = documentedOnly(
  z.object({
    file: z
      .string()
      .meta({ format: 'binary' })
      .describe('the CSV (UTF-8, commas, the template header), at most 50 MB'),
    dryRun: z.enum(['true', 'false']).optional().describe('default true: judge every row, write nothing'),
    mode: z.enum(['create', 'update']).optional().describe('default create; update changes rows that exist'),
  }),
);

/**
 * Bulk import from CSV (issue 45): `POST import/<kind>` judges the file (a refusal is a 400 before any job
 * starts), keeps it in a job row and answers the job's id; the job runs on this server in batches, and
 * `GET import/fetch/:id` follows it from any server. `GET import/template/<kind>` is the kind's template.
 */
export default async function importRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config, cipher } = app;
  const people = peopleService({ db, config, cipher });
  /** Jobs under way on this server: waited for when it closes. */
  const running = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...running]);
  });

  // busboy reads the body in the handler (http/multipart.ts); Fastify only has to let it through.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));

  app.post(
    '/import/:kind',
    guarded('imports', 'read', {
      tags,
      summary: 'Start an import of a CSV file (a dry run unless dryRun=false)',
      consumes: ['multipart/form-data'],
      params: kindParam,
      body: importParts,
      response: { 200: envelope(z.strictObject({ _id: z.string() })) },
    }),
    async (request) => {
      const kind = request.params.kind as (typeof IMPORT_KINDS)[number];
      const { user, tokenHash } = caller(request);
      const received = await receiveImport(request, config.uploadIdleTimeoutMs);
      // Only an admin writes; the kind's own create right as its dialog has it.
      if (!received.dryRun) {
        const type = user.type as UserType;
        if (!can(type, 'imports', 'create')) throw forbidden(IMPORT_MSG.adminOnly);
        if (!can(type, IMPORT_RESOURCE[kind], 'create')) throw forbidden();
      }
      const { rows } = parseImport(kind, received.content);
      const id = await createJob(db, {
        kind,
        fileName: received.fileName,
        dryRun: received.dryRun,
        mode: received.mode,
        actorId: user.id,
        content: received.content,
        total: rows.length,
      });
      const job = runImport(
        {
          db,
          config,
          cipher,
          people,
          log: request.log,
          // Its rows are written after this answer: the session learns their position when they are all in.
          ...(app.readRouter && !received.dryRun
            ? { beforeFinish: () => recordSessionWrite(db, tokenHash) }
            : {}),
        },
        {
          id,
          kind,
          fileName: received.fileName,
          dryRun: received.dryRun,
          mode: received.mode,
          caller: user,
          actor: actorOf(request),
          ip: request.ip,
        },
        rows,
      );
      running.add(job);
      void job.finally(() => running.delete(job));
      return { result: { _id: id }, message: IMPORT_MSG.started };
    },
  );

  app.get(
    '/import/fetch/:id',
    guarded('imports', 'read', {
      tags,
      summary: "An import's status, counts and row errors",
      params: idParam,
      response: { 200: envelope(wireImportJobSchema) },
    }),
    async (request) => {
      const view = await jobView(db, request.params.id, importSettings.staleAfterMs);
      if (!view) throw notFound(IMPORT_MSG.jobNotFound);
      return { result: view };
    },
  );

  app.get(
    '/import/export/:kind',
    {
      schema: {
        tags,
        summary:
          "A list as its import template has it: every row of the caller's list, for an import elsewhere",
        description:
          "signed in; whoever may see the kind's list (the role table), scoped to the caller's network. Customers' Aadhar numbers are whole for ADMIN only (audited), masked for others",
        params: kindParam,
      },
    },
    async (request, reply) => {
      const kind = request.params.kind as (typeof IMPORT_KINDS)[number];
      const { user } = caller(request);
      const type = user.type as UserType;
      if (!can(type, IMPORT_RESOURCE[kind], 'list')) throw forbidden();
      const wholeAadhar = kind === 'customers' && type === UserType.ADMIN;
      const rows = await exportRows(db, user, kind, cipher, wholeAadhar);
      if (wholeAadhar)
        // Whole Aadhar numbers left the server: who took them, when and how many (never the numbers).
        await inTransaction(db, (tx) =>
          auditRecorder(
            actorOf(request),
            request.ip,
            'import.export',
            'import',
          )(tx, {
            entityId: null,
            after: { kind, rows: rows.length - 1 },
          }),
        );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', contentDisposition(`${kind}.csv`))
        .send(csvText(rows));
    },
  );

  app.get(
    '/import/template/:kind',
    guarded('imports', 'read', {
      tags,
      summary: "A kind's CSV template: its header row and one example row",
      params: kindParam,
    }),
    async (request, reply) => {
      const kind = request.params.kind as (typeof IMPORT_KINDS)[number];
      const columns = IMPORT_COLUMNS[kind];
      const example = IMPORT_EXAMPLES[kind];
      const body = `${csvLine([...columns])}\r\n${csvLine(columns.map((c) => example[c] ?? ''))}\r\n`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', contentDisposition(`${kind}-template.csv`))
        .send(body);
    },
  );
}
