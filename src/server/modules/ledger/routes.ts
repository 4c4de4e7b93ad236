import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { POSTING_STATUSES, TRANSACTION_TYPES, UserType } from '../../../shared/enums';
import { adjustSchemaFor } from '../../../shared/schemas/approvals';
import { payoutSchemaFor, SALES_MSG, settleSchema } from '../../../shared/schemas/sales';
import {
  envelope,
  listEnvelope,
  reconcileReportSchema,
  settleResultSchema,
  walletFetchResultSchema,
  wireCommandSchema,
  wireTransactionSchema,
} from '../../../shared/wire';
import { users } from '../../db/schema';
import { notFound } from '../../http/errors';
import { offsetOf, pagingQuery } from '../../http/paging';
import { optionalFilter, optionalUuid } from '../../http/params';
import { jsonAnswer, listAnswerText } from '../../http/schemas';
import { caller, guarded, guardedRead } from '../../http/session';
import { payoutNeedsApproval, personOf, submitAdjustment, submitPayout } from '../approvals';
import { actorOf, requestRecorder } from '../audit/record';
import type { PostingRow } from './ledger';
import { recordPayout } from './payout';
import { listTransactions, listWalletTransactions, toWireTransaction, walletOf } from './queries';
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
  // Payouts bounded by this server's configuration (MAX_AMOUNT_RUPEES).
  const payoutSchema = payoutSchemaFor(app.config.maxAmountPaise);
  const adjustSchema = adjustSchemaFor(app.config.maxAmountPaise);

  app.get(
    '/transactions/fetch',
    guardedRead('transactions', 'list', {
      tags,
      summary: 'Every posting, newest first',
      querystring: transactionsQuery,
      response: { 200: listEnvelope('transactions', wireTransactionSchema) },
    }),
    async (request, reply) => {
      const q = request.query;
      const page = await listTransactions(
        db,
        {
          transactionType: q.transactionType,
          userId: q.userId,
          userType: q.userType as UserType | undefined,
          boughtProductId: q.boughtProductId,
          status: q.status,
        },
        { limit: q.limit, offset: offsetOf(q) },
        request.pendingSession,
      );
      return jsonAnswer(request, reply, listAnswerText('transactions', page));
    },
  );

  /** The caller's own wallet and postings: scoped by the session, never by a parameter. */
  app.get(
    '/wallet/fetch',
    guardedRead('wallet', 'read', {
      tags,
      summary: 'The caller’s own wallet and postings',
      querystring: walletQuery,
      response: { 200: envelope(walletFetchResultSchema) },
    }),
    async (request, reply) => {
      const { user } = caller(request);
      const q = request.query;
      const [wallet, page] = await Promise.all([
        walletOf(db, user.id),
        listWalletTransactions(
          db,
          user.id,
          q.transactionType,
          { limit: q.limit, offset: offsetOf(q) },
          request.pendingSession,
        ),
      ]);
      return jsonAnswer(request, reply, listAnswerText('transactions', page, { wallet }));
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
      });
      return { result, message: SALES_MSG.settled(result.settled) };
    },
  );

  app.post(
    '/wallet/payout',
    guarded('payouts', 'create', {
      tags,
      summary:
        'Record a payout (the reference is an idempotency key); above PAYOUT_APPROVAL_ABOVE_RUPEES, or made by an employee, it waits for approval (202)',
      body: payoutSchema,
      response: { 200: envelope(wireTransactionSchema), 202: envelope(wireCommandSchema) },
    }),
    async (request, reply) => {
      const input = request.body;
      const maker = caller(request).user;
      let answer: { posting: PostingRow; replay: boolean };
      if (payoutNeedsApproval(maker.type, input.amount, app.config.payoutApprovalAbovePaise)) {
        const submitted = await submitPayout(db, personOf(request), input);
        if ('command' in submitted) {
          reply.code(202);
          return { result: submitted.command, message: SALES_MSG.payoutPending };
        }
        answer = { posting: submitted.posting, replay: true };
      } else {
        answer = await recordPayout(
          db,
          app.ledgerKey,
          maker.id,
          input,
          requestRecorder(request, 'wallet.payout', 'posting'),
        );
      }
      const { posting, replay } = answer;
      const [user] = await db
        .select({
          id: users.id,
          name: users.name,
          email: users.email,
          mobile: users.mobile,
          type: users.type,
        })
        .from(users)
        .where(eq(users.id, posting.userId));
      return {
        result: toWireTransaction(posting, user),
        message: replay ? SALES_MSG.payoutReplayed : SALES_MSG.payoutRecorded,
      };
    },
  );

  app.post(
    '/wallet/adjust',
    guarded('adjustments', 'create', {
      tags,
      summary: 'A signed credit or debit of a wallet with a reason: always waits for approval (202)',
      body: adjustSchema,
      response: { 202: envelope(wireCommandSchema) },
    }),
    async (request, reply) => {
      const result = await submitAdjustment(db, personOf(request), request.body);
      reply.code(202);
      return { result, message: SALES_MSG.adjustmentPending };
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
