import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UserType } from '../../../shared/enums';
import { can } from '../../../shared/roles';
import {
  APPROVAL_MSG,
  adjustSchemaFor,
  approveSchema,
  COMMAND_STATUSES,
  powerRequestSchema,
  rejectSchema,
} from '../../../shared/schemas/approvals';
import { payoutSchemaFor, SALES_MSG } from '../../../shared/schemas/sales';
import { adminCreateSchema } from '../../../shared/schemas/users';
import {
  adminCountSchema,
  approvedCommandSchema,
  envelope,
  listEnvelope,
  wireCommandSchema,
  wireTransactionSchema,
} from '../../../shared/wire';
import { users } from '../../db/schema';
import { forbidden, parseInput } from '../../http/errors';
import { offsetOf, pagingQuery } from '../../http/paging';
import { idParam, optionalFilter } from '../../http/params';
import { caller, guarded, guardedReport } from '../../http/session';
import { type AdminCreation, adminCount, requireStepUp } from '../account/index';
import { actorOf } from '../audit/index';
import { toWireTransaction } from '../ledger/index';
import {
  approveCommand,
  listCommands,
  makePayout,
  type Person,
  rejectCommand,
  submitAdjustment,
  submitAdminCreation,
  submitPowerCommand,
} from './commands';

const tags = ['approvals'];
/** Payouts and adjustments are wallet commands: listed with the ledger's operations. */
const ledgerTags = ['ledger'];
/** Admins are people: their commands are listed with the account's operations. */
const accountTags = ['account'];

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
 * `account/create` with type 0 (accountRoutes hands it here, see AdminCreation): the new admin as a command
 * another admin approves. Only an admin asks; the body carries no password.
 */
export const adminCreation: AdminCreation = async (request) => {
  const maker = personOf(request);
  if (!can(maker.type as UserType, 'admins', 'create')) throw forbidden();
  const input = parseInput(adminCreateSchema, request.body);
  const result = await submitAdminCreation(request.server.db, maker, {
    name: input.name,
    userName: input.userName,
    email: input.email,
    mobile: input.mobile,
    districtId: input.districtId,
    tehsilId: input.tehsilId,
  });
  return { result, message: APPROVAL_MSG.adminCreationPending };
};

/**
 * Maker-checker (issues 43 and 51). `approvals/fetch`: an admin reads every command, an employee the ones it made;
 * approving and rejecting are an admin's, never the maker's own nor the one the command is for.
 */
export default async function approvalRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  // Payouts and adjustments bounded by this server's configuration (MAX_AMOUNT_RUPEES).
  const payoutSchema = payoutSchemaFor(app.config.maxAmountPaise);
  const adjustSchema = adjustSchemaFor(app.config.maxAmountPaise);
  const lines = {
    abovePaise: app.config.payoutApprovalAbovePaise,
    dailyPaise: app.config.payoutApprovalDailyPaise,
  };

  app.post(
    '/wallet/payout',
    guarded('payouts', 'create', {
      tags: ledgerTags,
      summary:
        'Record a payout to a tier user (the reference is an idempotency key); above PAYOUT_APPROVAL_ABOVE_RUPEES, past the maker’s PAYOUT_APPROVAL_DAILY_RUPEES of the day, or made by an employee, it waits for approval (202)',
      body: payoutSchema,
      response: { 200: envelope(wireTransactionSchema), 202: envelope(wireCommandSchema) },
    }),
    async (request, reply) => {
      const answer = await makePayout(db, app.ledgerKey, personOf(request), request.body, lines);
      if ('command' in answer) {
        reply.code(202);
        return { result: answer.command, message: answer.message };
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
      summary:
        'A signed credit or debit of a tier user’s wallet, with a note for the statement and a reason for staff: always waits for approval (202)',
      body: adjustSchema,
      response: { 202: envelope(wireCommandSchema) },
    }),
    async (request, reply) => {
      const result = await submitAdjustment(db, personOf(request), request.body);
      reply.code(202);
      return { result, message: SALES_MSG.adjustmentPending };
    },
  );

  const powerRequest = (
    path: string,
    kind: 'ADMIN_PROMOTE' | 'ADMIN_PASSWORD_RESET' | 'ADMIN_SECOND_STEP_RESET',
    action: 'create' | 'edit',
    summary: string,
    message: string,
  ) =>
    app.post(
      path,
      guarded('admins', action, {
        tags: accountTags,
        summary,
        params: idParam,
        body: powerRequestSchema,
        response: { 202: envelope(wireCommandSchema) },
      }),
      async (request, reply) => {
        const result = await submitPowerCommand(
          db,
          personOf(request),
          kind,
          request.params.id,
          request.body.reason,
        );
        reply.code(202);
        return { result, message };
      },
    );
  powerRequest(
    '/account/promote/:id',
    'ADMIN_PROMOTE',
    'create',
    'Make an active employee an admin, with a reason: a command another admin approves (202)',
    APPROVAL_MSG.promotionPending,
  );
  powerRequest(
    '/account/resetPassword/:id',
    'ADMIN_PASSWORD_RESET',
    'edit',
    'Reset another admin’s password, with a reason: a command another admin approves (202); the approver receives a one-time password',
    APPROVAL_MSG.passwordResetPending,
  );
  powerRequest(
    '/account/resetSecondStep/:id',
    'ADMIN_SECOND_STEP_RESET',
    'edit',
    'Reset another admin’s second step, with a reason: a command another admin approves (202)',
    APPROVAL_MSG.secondStepResetPending,
  );

  app.get(
    '/approvals/fetch',
    guardedReport('approvals', 'read', {
      tags,
      summary: 'Pending commands (money and power), newest first; `status` filters',
      querystring: approvalsQuery,
      response: { 200: listEnvelope('approvals', wireCommandSchema) },
    }),
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

  app.get(
    '/approvals/admins',
    guarded('approvals', 'read', {
      tags,
      summary: 'How many admins the network has: with one, nobody can approve that admin’s own commands',
      response: { 200: envelope(adminCountSchema) },
    }),
    async () => ({ result: { admins: await adminCount(db) } }),
  );

  app.post(
    '/approvals/approve/:id',
    guarded('approvals', 'edit', {
      tags,
      summary:
        'Approve a pending command (neither its maker nor the one it is for): it runs now; an admin creation or password reset answers a one-time password, once. A checker with a second step sends its current code (otp)',
      params: idParam,
      body: approveSchema,
      response: { 200: envelope(approvedCommandSchema) },
    }),
    async (request) => {
      await requireStepUp(request, request.body.otp);
      const { command, message, oneTimePassword } = await approveCommand(
        db,
        app.ledgerKey,
        request.params.id,
        personOf(request),
      );
      return { result: { ...command, ...(oneTimePassword ? { oneTimePassword } : {}) }, message };
    },
  );

  app.post(
    '/approvals/reject/:id',
    guarded('approvals', 'edit', {
      tags,
      summary:
        'Reject a pending command with a reason (neither its maker nor the one it is for): nothing moves. A checker with a second step sends its current code (otp)',
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
