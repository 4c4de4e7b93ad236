import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UserType } from '../../../shared/enums';
import {
  adjustSchemaFor,
  approveSchema,
  COMMAND_STATUSES,
  rejectSchema,
} from '../../../shared/schemas/approvals';
import { payoutSchemaFor, SALES_MSG } from '../../../shared/schemas/sales';
import { envelope, listEnvelope, wireCommandSchema, wireTransactionSchema } from '../../../shared/wire';
import { users } from '../../db/schema';
import { notFound } from '../../http/errors';
import { offsetOf, pagingQuery } from '../../http/paging';
import { idParam, optionalFilter } from '../../http/params';
import { reportReads } from '../../http/reader';
import { caller, guarded } from '../../http/session';
import { requireStepUp } from '../account/index';
import { actorOf, requestRecorder } from '../audit/index';
import { type PostingRow, recordPayout, toWireTransaction } from '../ledger/index';
import {
  approveCommand,
  listCommands,
  type Person,
  payoutNeedsApproval,
  rejectCommand,
  submitAdjustment,
  submitPayout,
} from './commands';

const tags = ['approvals'];
/** Payouts and adjustments are wallet commands: listed with the ledger's operations. */
const ledgerTags = ['ledger'];

const approvalsQuery = pagingQuery.and(
  z.object({
    status: optionalFilter(
      z.enum(COMMAND_STATUSES, { error: `status must be one of ${COMMAND_STATUSES.join(', ')}` }),
    ),
  }),
);

/** The signed-in caller as the maker or checker of a command. */
export const personOf = (request: FastifyRequest): Person => {
  const { user } = caller(request);
  return { id: user.id, type: user.type, actor: actorOf(request), ip: request.ip };
};

/**
 * Maker-checker (issue 43). `approvals/fetch`: an admin reads every command, an employee the ones it made;
 * approving and rejecting are an admin's, never the maker's own.
 */
export default async function approvalRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  // Payouts and adjustments bounded by this server's configuration (MAX_AMOUNT_RUPEES).
  const payoutSchema = payoutSchemaFor(app.config.maxAmountPaise);
  const adjustSchema = adjustSchemaFor(app.config.maxAmountPaise);

  app.post(
    '/wallet/payout',
    guarded('payouts', 'create', {
      tags: ledgerTags,
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
      tags: ledgerTags,
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
    '/approvals/fetch',
    {
      ...guarded('approvals', 'read', {
        tags,
        summary: 'Pending commands (payouts and adjustments), newest first; `status` filters',
        querystring: approvalsQuery,
        response: { 200: listEnvelope('approvals', wireCommandSchema) },
      }),
      config: reportReads,
    },
    async (request) => {
      const { user } = caller(request);
      const q = request.query;
      const { commands, total } = await listCommands(
        request.reader,
        { status: q.status, makerId: user.type === UserType.ADMIN ? undefined : user.id },
        { limit: q.limit, offset: offsetOf(q) },
      );
      return { result: { approvals: commands, totalCounts: total } };
    },
  );

  app.post(
    '/approvals/approve/:id',
    guarded('approvals', 'edit', {
      tags,
      summary:
        'Approve a pending command (not its maker): it runs now. A checker with a second step sends its current code (otp)',
      params: idParam,
      body: approveSchema,
      response: { 200: envelope(wireCommandSchema) },
    }),
    async (request) => {
      await requireStepUp(request, request.body.otp);
      const result = await approveCommand(db, app.ledgerKey, request.params.id, personOf(request));
      if (!result) throw notFound(SALES_MSG.commandNotFound);
      return { result, message: SALES_MSG.commandApproved };
    },
  );

  app.post(
    '/approvals/reject/:id',
    guarded('approvals', 'edit', {
      tags,
      summary:
        'Reject a pending command with a reason (not its maker): nothing moves. A checker with a second step sends its current code (otp)',
      params: idParam,
      body: rejectSchema,
      response: { 200: envelope(wireCommandSchema) },
    }),
    async (request) => {
      await requireStepUp(request, request.body.otp);
      const result = await rejectCommand(db, request.params.id, personOf(request), request.body.reason);
      return { result, message: SALES_MSG.commandRejected };
    },
  );
}
