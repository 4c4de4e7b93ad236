import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UserType } from '../../../shared/enums';
import { COMMAND_STATUSES, rejectSchema } from '../../../shared/schemas/approvals';
import { SALES_MSG } from '../../../shared/schemas/sales';
import { envelope, listEnvelope, wireCommandSchema } from '../../../shared/wire';
import { notFound } from '../../http/errors';
import { offsetOf, pagingQuery } from '../../http/paging';
import { idParam, optionalFilter } from '../../http/params';
import { caller, guarded, guardedRead } from '../../http/session';
import { actorOf } from '../audit/record';
import { approveCommand, listCommands, type Person, rejectCommand } from './commands';

const tags = ['approvals'];

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

  app.get(
    '/approvals/fetch',
    guardedRead('approvals', 'read', {
      tags,
      summary: 'Pending commands (payouts and adjustments), newest first; `status` filters',
      querystring: approvalsQuery,
      response: { 200: listEnvelope('approvals', wireCommandSchema) },
    }),
    async (request) => {
      const { user } = caller(request);
      const q = request.query;
      const { commands, total } = await listCommands(
        db,
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
      summary: 'Approve a pending command (not its maker): it runs now',
      params: idParam,
      response: { 200: envelope(wireCommandSchema) },
    }),
    async (request) => {
      const result = await approveCommand(db, app.ledgerKey, request.params.id, personOf(request));
      if (!result) throw notFound(SALES_MSG.commandNotFound);
      return { result, message: SALES_MSG.commandApproved };
    },
  );

  app.post(
    '/approvals/reject/:id',
    guarded('approvals', 'edit', {
      tags,
      summary: 'Reject a pending command with a reason (not its maker): nothing moves',
      params: idParam,
      body: rejectSchema,
      response: { 200: envelope(wireCommandSchema) },
    }),
    async (request) => {
      const result = await rejectCommand(db, request.params.id, personOf(request), request.body.reason);
      return { result, message: SALES_MSG.commandRejected };
    },
  );
}
