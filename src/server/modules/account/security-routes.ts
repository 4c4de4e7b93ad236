import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MFA_MSG } from '../../../shared/constants/mfa';
import { mfaDisableSchema, mfaEnableSchema } from '../../../shared/schemas/account';
import {
  envelope,
  listEnvelope,
  mfaSetupResultSchema,
  recoveryCodesResultSchema,
  wireSessionSchema,
} from '../../../shared/wire';
import { inTransaction } from '../../db/transaction';
import { conflict, forbidden, notFound } from '../../http/errors';
import { idParam } from '../../http/params';
import { caller } from '../../http/session';
import { requestRecorder, runCommand } from '../audit/index';
import { checkCode, judgeCode, spendRecoveryCode, startSetUp, switchOff, switchOn } from './second-step';
import { endSession, listSessions } from './sessions';

const tags = ['account'];

/**
 * A person's own security (issue 51): the second step of signing in (TOTP) and the person's sessions. Each acts on
 * the caller alone; nobody sets up, switches off or ends another's. docs/api.md, "Two-step sign-in and sessions".
 */
export default async function securityRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config, cipher } = app;

  app.post(
    '/account/mfa/setup',
    {
      config: { access: 'second-step' },
      schema: {
        tags,
        summary:
          'Start setting up the second step: a new TOTP secret (base32) and its otpauth:// URI, not on until account/mfa/enable',
        description: 'second-step (allowed before a required second step is set up)',
        response: { 200: envelope(mfaSetupResultSchema) },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const started = await startSetUp(db, cipher, user.id);
      if (!started) throw conflict(MFA_MSG.alreadyOn);
      return { result: started };
    },
  );

  app.post(
    '/account/mfa/enable',
    {
      config: { access: 'second-step' },
      schema: {
        tags,
        summary:
          'Switch the second step on with a code of the new secret; answers the 10 recovery codes, this once',
        description: 'second-step (allowed before a required second step is set up)',
        body: mfaEnableSchema,
        response: { 200: envelope(recoveryCodesResultSchema) },
      },
    },
    async (request) => {
      const { user } = caller(request);
      let codes: string[] | undefined;
      await judgeCode(request, 'otp', async () => {
        const outcome = await inTransaction(db, async (tx) => {
          const result = await switchOn(tx, cipher, user.id, request.body.otp);
          if (result === 'on') throw conflict(MFA_MSG.alreadyOn);
          if (result === 'not-set-up') throw conflict(MFA_MSG.notSetUp);
          // A wrong code changes nothing; its audit row is judgeCode's refusal.
          if (result !== 'wrong')
            await requestRecorder(
              request,
              'user.mfa.on',
              'user',
            )(tx, {
              entityId: user.id,
              before: { mfaEnabled: false },
              after: { mfaEnabled: true },
            });
          return result;
        });
        if (outcome === 'wrong') return 'wrong';
        codes = outcome.recoveryCodes;
        return 'ok';
      });
      return { result: { recoveryCodes: codes ?? [] }, message: MFA_MSG.enabled };
    },
  );

  app.post(
    '/account/mfa/disable',
    {
      schema: {
        tags,
        summary: 'Switch one’s own second step off with a current code (or a recovery code)',
        description: 'private',
        body: mfaDisableSchema,
        response: { 200: envelope(z.literal(true)) },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { otp, recoveryCode } = request.body;
      if (config.mfaRequiredFor.includes(user.type)) throw forbidden(MFA_MSG.requiredForYou);
      if (!user.mfaEnabled) throw conflict(MFA_MSG.notOn);
      await judgeCode(request, otp !== undefined ? 'otp' : 'recoveryCode', () =>
        otp !== undefined
          ? checkCode(db, cipher, user.id, otp)
          : spendRecoveryCode(db, cipher, user.id, recoveryCode!),
      );
      await runCommand(request, { action: 'user.mfa.off', entity: 'user' }, async (tx) => {
        await switchOff(tx, user.id);
        return {
          entityId: user.id,
          before: { mfaEnabled: true },
          after: { mfaEnabled: false },
          result: true,
        };
      });
      return { result: true as const, message: MFA_MSG.disabled };
    },
  );

  app.get(
    '/account/sessions',
    {
      schema: {
        tags,
        summary: 'One’s own sessions that have not expired, most recently seen first (at most 100)',
        description: 'private',
        response: { 200: listEnvelope('sessions', wireSessionSchema) },
      },
    },
    async (request) => {
      const { user, tokenHash } = caller(request);
      const sessions = await listSessions(db, user.id, tokenHash);
      return { result: { sessions, totalCounts: sessions.length } };
    },
  );

  app.post(
    '/account/sessions/revoke/:id',
    {
      schema: {
        tags,
        summary: 'End one of one’s own sessions (another person’s is not found)',
        description: 'private',
        params: idParam,
        response: { 200: envelope(z.literal(true)) },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const { id } = request.params;
      await runCommand(request, { action: 'user.session.end', entity: 'user' }, async (tx) => {
        if (!(await endSession(tx, user.id, id))) throw notFound(MFA_MSG.sessionNotFound);
        return { entityId: user.id, after: { session: id }, result: true };
      });
      return { result: true as const, message: MFA_MSG.sessionEnded };
    },
  );
}
