import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import contentDisposition from 'content-disposition';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UserType } from '../../../shared/enums';
import { can } from '../../../shared/roles';
import {
  IMPORT_COLUMNS,
  IMPORT_EXAMPLES,
  IMPORT_KEPT_ERRORS,
  IMPORT_KINDS,
  IMPORT_MSG,
  IMPORT_RESOURCE,
  importFetchQuerySchema,
  wireImportJobSchema,
} from '../../../shared/schemas/imports';
import { envelope } from '../../../shared/wire';
import { inTransaction } from '../../db/transaction';
import { csvText } from '../../http/csv';
import { forbidden, HttpError, notFound } from '../../http/errors';
import { idParam } from '../../http/params';
import { documentedOnly } from '../../http/schemas';
import { caller, guarded } from '../../http/session';
import { recordSessionWrite } from '../../http/session-token';
import { peopleService } from '../account/index';
import { actorOf, auditRecorder } from '../audit/index';
import { exportRows } from './export';
import { countImportRows, csvLine, receiveImport } from './file';
import { createJob, hasRunningJob, importLock, jobView } from './jobs';
import { runImport } from './run';

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
 * Bulk import from CSV (issues 45 and 51): `POST import/<kind>` receives the file to a temporary file, checks it
 * in a first streaming pass (a refusal, too many rows included, is a 400 before any row is judged), starts a job
 * (one running per person: 409) and answers its id; the job stores the file and runs on this server in batches,
 * and `GET import/fetch/:id` follows it from any server, a page of its row errors at a time.
 * `GET import/template/<kind>` is the kind's template.
 */
export default async function importRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config, cipher, runners } = app;
  const people = peopleService({ db, config, cipher });
  const uploadsDir = path.join(config.dataDir, 'uploads');
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
      // Refused before the file is read (the database decides again as the job starts: createJob).
      if (await hasRunningJob(db, user.id))
        throw new HttpError(409, IMPORT_MSG.running, undefined, { connection: 'close' });
      const received = await receiveImport(request, uploadsDir, config.uploadIdleTimeoutMs);
      let handedOver = false;
      try {
        // Only an admin writes; the kind's own create right as its dialog has it.
        if (!received.dryRun) {
          const type = user.type as UserType;
          if (!can(type, 'imports', 'create')) throw forbidden(IMPORT_MSG.adminOnly);
          if (!can(type, IMPORT_RESOURCE[kind], 'create')) throw forbidden();
        }
        const total = await countImportRows(kind, fs.createReadStream(received.path), config.importMaxRows);
        // The job's runner lock is this server's before its row exists (jobs.ts, importLock); an id whose lock is
        // taken (another job's, by a chance of one in 2^32) is not used.
        let id = randomUUID();
        let lock = await runners.tryTake(importLock(id));
        while (!lock) {
          id = randomUUID();
          lock = await runners.tryTake(importLock(id));
        }
        let fileId: string;
        try {
          ({ fileId } = await createJob(db, {
            id,
            kind,
            fileName: received.fileName,
            dryRun: received.dryRun,
            mode: received.mode,
            actorId: user.id,
            size: received.size,
            total,
          }));
        } catch (error) {
          await lock.release();
          throw error;
        }
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
            fileId,
            kind,
            fileName: received.fileName,
            dryRun: received.dryRun,
            mode: received.mode,
            caller: user,
            actor: actorOf(request),
            ip: request.ip,
          },
          received,
          lock,
        );
        handedOver = true;
        running.add(job);
        void job.finally(() => running.delete(job));
        return { result: { _id: id }, message: IMPORT_MSG.started };
      } finally {
        if (!handedOver) await received.discard();
      }
    },
  );

  app.get(
    '/import/fetch/:id',
    guarded('imports', 'read', {
      tags,
      summary:
        "An import's status, counts and a page of its row errors; format=csv for all it kept, as a file",
      params: idParam,
      querystring: importFetchQuerySchema,
      response: { 200: envelope(wireImportJobSchema) },
    }),
    async (request, reply) => {
      const { errorsPage, errorsLimit, format } = request.query;
      const page =
        format === 'csv'
          ? { offset: 0, limit: IMPORT_KEPT_ERRORS }
          : { offset: (errorsPage - 1) * errorsLimit, limit: errorsLimit };
      const view = await jobView(db, request.params.id, page);
      if (!view) throw notFound(IMPORT_MSG.jobNotFound);
      if (format === 'csv')
        return (
          reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', contentDisposition(`${view.kind}-errors.csv`))
            // Text under a non-JSON type is sent as it is (no JSON serializer).
            .send(
              csvText([
                ['row', 'column', 'message'],
                ...view.errors.map((e) => [e.row, e.column, e.message]),
              ]) as never,
            )
        );
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
