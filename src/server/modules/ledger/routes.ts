import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { POSTING_STATUSES, TRANSACTION_TYPES, UserType } from '../../../shared/enums';
import { AUDIT_MSG, dayRangeSchema } from '../../../shared/schemas/audit';
import { SALES_MSG, settleSchema } from '../../../shared/schemas/sales';
import {
  envelope,
  reconcileReportSchema,
  settleResultSchema,
  transactionsFetchResultSchema,
  walletFetchResultSchema,
} from '../../../shared/wire';
import { users } from '../../db/schema';
import { badRequest, notFound } from '../../http/errors';
import { cappedMark, offsetOf, pagingQuery } from '../../http/paging';
import { optionalFilter, optionalUuid } from '../../http/params';
import { caller, guarded, guardedReport } from '../../http/session';
import { actorOf } from '../audit/index';
import { listTransactions, listWalletTransactions, postingTotals, walletOf } from './queries';
import { reconcile } from './reconcile';
import { settle } from './settlement';

const transactionType = optionalFilter(
  z.enum(TRANSACTION_TYPES, { error: 'transactionType must be CREDIT or DEBIT' }),
);

/**
 * Seed section 7: `transactions/fetch` with page, limit, transactionType, userId, userType, boughtProductId; Tierdesk
 * adds status, and (issue 43) the days `from` and `to`.
 */
const transactionsQuery = pagingQuery.and(dayRangeSchema).and(
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

const walletQuery = pagingQuery.and(dayRangeSchema).and(z.object({ transactionType }));

/** A day range whose From is after its To: refused, as the audit trail refuses it. */
const checkDays = (q: { from?: string; to?: string }) => {
  if (q.from && q.to && q.from > q.to) throw badRequest(AUDIT_MSG.fromAfterTo, 'from');
};

const tags = ['ledger'];

export default async function ledgerRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  app.get(
    '/transactions/fetch',
    guardedReport('transactions', 'list', {
      tags,
      summary: 'Every posting, newest first, with the money in and out of the whole filter',
      querystring: transactionsQuery,
      response: { 200: envelope(transactionsFetchResultSchema) },
    }),
    async (request) => {
      const q = request.query;
      checkDays(q);
      const filter = {
        transactionType: q.transactionType,
        userId: q.userId,
        userType: q.userType as UserType | undefined,
        boughtProductId: q.boughtProductId,
        status: q.status,
        from: q.from,
        to: q.to,
      };
      const [{ transactions, total, capped }, totals] = await Promise.all([
        listTransactions(request.reader, filter, { limit: q.limit, offset: offsetOf(q) }),
        postingTotals(request.reader, filter),
      ]);
      return { result: { transactions, totalCounts: total, totals, ...cappedMark(capped) } };
    },
  );

  /** The caller's own wallet and postings: scoped by the session, never by a parameter. */
  app.get(
    '/wallet/fetch',
    guardedReport('wallet', 'read', {
      tags,
      summary: 'The caller’s own wallet and postings, with the money in and out of the whole filter',
      querystring: walletQuery,
      response: { 200: envelope(walletFetchResultSchema) },
    }),
    async (request) => {
      const { user } = caller(request);
      const q = request.query;
      checkDays(q);
      const filter = { transactionType: q.transactionType, from: q.from, to: q.to };
      const [wallet, { transactions, total, capped }, totals] = await Promise.all([
        walletOf(request.reader, user.id),
        listWalletTransactions(request.reader, user.id, filter, { limit: q.limit, offset: offsetOf(q) }),
        postingTotals(request.reader, { ...filter, userId: user.id }),
      ]);
      return { result: { wallet, transactions, totalCounts: total, totals, ...cappedMark(capped) } };
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
    // One snapshot, read-only: the replica's is as whole as the primary's.
    guardedReport('ledger', 'list', {
      tags,
      summary: 'Prove the ledger',
      response: { 200: envelope(reconcileReportSchema) },
    }),
    async (request) => ({
      result: await reconcile(request.reader, app.ledgerKey),
    }),
  );
}
