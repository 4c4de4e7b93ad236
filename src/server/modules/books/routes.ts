import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paiseToRupees } from '../../../shared/money';
import {
  booksFetchResultSchema,
  reconcileRunSchema,
  settlePreviewSchema,
} from '../../../shared/schemas/books';
import { envelope } from '../../../shared/wire';
import { caller, guarded, guardedReport } from '../../http/session';
import { owedPaise, previewSettle, walletOf } from '../ledger/index';
import { tdsPayable } from '../tds/index';
import { latestReconcileRun, reconcileAndRecord } from './reconcile-runs';

const tags = ['books'];

/**
 * The Books screen's calls (issue 43, ADMIN only): the company's books at a glance, reconcile on demand (each run
 * recorded in PostgreSQL, so every server shows the same latest one), and what "settle all" would move.
 */
export default async function booksRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  app.get(
    '/books/fetch',
    guardedReport('books', 'list', {
      tags,
      summary: "The latest reconcile run, the caller's wallet, TDS payable and what the network is owed",
      response: { 200: envelope(booksFetchResultSchema) },
    }),
    async (request) => {
      const { user } = caller(request);
      const reader = request.reader;
      // One after the other: the embedded engine has one connection, and each read is a key look-up or one sum.
      const reconcile = await latestReconcileRun(reader);
      const wallet = await walletOf(reader, user.id);
      const payable = await tdsPayable(reader);
      const owed = await owedPaise(reader);
      return {
        result: { reconcile, wallet, tdsPayable: paiseToRupees(payable), owed: paiseToRupees(owed) },
      };
    },
  );

  app.post(
    '/books/reconcile',
    guarded('books', 'edit', {
      tags,
      summary: 'Prove the ledger now and record the run (the latest run is what books/fetch answers)',
      response: { 200: envelope(reconcileRunSchema) },
    }),
    async (request) => {
      const { user } = caller(request);
      const { id } = await reconcileAndRecord(db, app.ledgerKey, { source: 'HTTP', userId: user.id });
      const run = await latestReconcileRun(db, id);
      if (!run) throw new Error('the reconcile run just recorded was not found');
      return { result: run };
    },
  );

  app.get(
    '/books/settlePreview',
    guarded('books', 'list', {
      tags,
      summary:
        'What wallet/settle {all: true} would move now and the TDS it would withhold (the settlement run and rolled back)',
      response: { 200: envelope(settlePreviewSchema) },
    }),
    async () => ({
      result: await previewSettle(db, app.ledgerKey, { all: true, tds: app.config.tds }),
    }),
  );
}
