import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { POSTING_STATUSES, TRANSACTION_TYPES, UserType } from '../../../shared/enums';
import { SALES_MSG, settleSchema } from '../../../shared/schemas/sales';
import {
  envelope,
  listEnvelope,
  reconcileReportSchema,
  settleResultSchema,
  walletFetchResultSchema,
  wireTransactionSchema,
} from '../../../shared/wire';
import { users } from '../../db/schema';
import { notFound } from '../../http/errors';
import { cappedMark, offsetOf, pagingQuery } from '../../http/paging';
import { optionalFilter, optionalUuid } from '../../http/params';
import { caller, guarded } from '../../http/session';
import { actorOf } from '../audit/index';
import { listTransactions, listWalletTransactions, walletOf } from './queries';
import { reconcile } from './reconcile';
import { settle } from './settlement';

const transactionType = optionalFilter(
  z.enum(TRANSACTION_TYPES, { error: 'transactionType must be CREDIT or DEBIT' }),
);

/** Seed section 7: `transactions/fetch` with page, limit, transactionType, userId, userType, boughtProductId. */
const transactionsQuery = pagingQuery.and(
  z.object({
    transactionType,
    userId: optionalUuid(SALES_MSG.invalidUser),
    userType: optionalFilter(
      z.coerce
        .number({ error: 'userType must be a user type number' })
        .int()
        .min(UserType.ADMIN, { error: 'userType must be a user type number' })
        .max(UserType.EMPLOYEE, { error: 'userType must be a user type number' }),
    ),
    boughtProductId: optionalUuid('Invalid bought product id'),
    status: optionalFilter(
      z.enum(POSTING_STATUSES, { error: `status must be one of ${POSTING_STATUSES.join(', ')}` }),
    ),
  }),
);

const walletQuery = pagingQuery.and(z.object({ transactionType }));

const tags = ['ledger'];

export default async function ledgerRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  app.get(
    '/transactions/fetch',
    guarded('transactions', 'list', {
      tags,
      summary: 'Every posting, newest first',
      querystring: transactionsQuery,
      response: { 200: listEnvelope('transactions', wireTransactionSchema) },
    }),
    async (request) => {
      const q = request.query;
      const { transactions, total, capped } = await listTransactions(
        db,
        {
          transactionType: q.transactionType,
          userId: q.userId,
          userType: q.userType as UserType | undefined,
          boughtProductId: q.boughtProductId,
          status: q.status,
        },
        { limit: q.limit, offset: offsetOf(q) },
      );
      return { result: { transactions, totalCounts: total, ...cappedMark(capped) } };
    },
  );

  /** The caller's own wallet and postings: scoped by the session, never by a parameter. */
  app.get(
    '/wallet/fetch',
    guarded('wallet', 'read', {
      tags,
      summary: 'The caller’s own wallet and postings',
      querystring: walletQuery,
      response: { 200: envelope(walletFetchResultSchema) },
    }),
    async (request) => {
      const { user } = caller(request);
      const q = request.query;
      const [wallet, { transactions, total, capped }] = await Promise.all([
        walletOf(db, user.id),
        listWalletTransactions(db, user.id, q.transactionType, { limit: q.limit, offset: offsetOf(q) }),
      ]);
      return { result: { wallet, transactions, totalCounts: total, ...cappedMark(capped) } };
    },
  );

  app.post(
    '/wallet/settle',
    guarded('ledger', 'edit', {
      tags,
      summary: 'Move clearing balances to available: one user (`userId`), or everyone (`all: true`)',
      body: settleSchema,
      response: { 200: envelope(settleResultSchema) },
    }),
    async (request) => {
      const { userId } = request.body;
      if (userId) {
        const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
        if (!user) throw notFound(SALES_MSG.userNotFound);
      }
      const result = await settle(db, app.ledgerKey, {
        ...(userId ? { userId } : { all: true as const }),
        createdBy: caller(request).user.id,
        actor: actorOf(request),
        ip: request.ip,
        tds: app.config.tds,
      });
      return { result, message: SALES_MSG.settled(result.settled) };
    },
  );

  app.get(
    '/ledger/reconcile',
    guarded('ledger', 'list', {
      tags,
      summary: 'Prove the ledger',
      response: { 200: envelope(reconcileReportSchema) },
    }),
    async () => ({
      result: await reconcile(db, app.ledgerKey),
    }),
  );
}
