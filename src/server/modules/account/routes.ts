import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MFA_MSG } from '../../../shared/constants/mfa';
import { UserStatus, UserType } from '../../../shared/enums';
import { MSG } from '../../../shared/messages';
import { can, USER_TYPE_RESOURCE } from '../../../shared/roles';
import { LOGIN_THROTTLE } from '../../../shared/rules';
import { loginSchema, resetPasswordSchema } from '../../../shared/schemas/account';
import {
  listedTypeField,
  statusSchema,
  USER_MSG,
  userCreateSchemas,
  userUpdateSchemas,
} from '../../../shared/schemas/users';
import {
  envelope,
  loginResultSchema,
  userFetchResultSchema,
  type WireCommand,
  wireCommandSchema,
  wireUserSchema,
} from '../../../shared/wire';
import { users } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import {
  badRequest,
  forbidden,
  HttpError,
  notFound,
  secondStepRequired,
  unauthorized,
} from '../../http/errors';
import { cappedMark, offsetOf, pagingQuery } from '../../http/paging';
import { idParam, optionalUuid } from '../../http/params';
import { listReads } from '../../http/reader';
import { documentedOnly } from '../../http/schemas';
import { caller, mustSetUpSecondStep } from '../../http/session';
import {
  actorOf,
  auditRecorder,
  maskField,
  publicActor,
  recordRefusal,
  requestRecorder,
  runCommand,
} from '../audit/index';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords';
import { peopleService } from './people';
import { checkCode, codeRefusal, hasSecondStep, spendRecoveryCode } from './second-step';
import { issueSession, revokeOtherSessions, revokeSession } from './sessions';
import { accountKey, clearFailures, lockedForMinutes, recordFailure, tooMany } from './throttle';
import { findLoginUser, listWireUsers, passwordHashOf } from './users';
import { toWireUser } from './wire';

const fetchQuery = pagingQuery.and(
  z.object({
    type: listedTypeField.optional(),
    _id: optionalUuid(USER_MSG.invalidUserId),
    masterDistributorId: optionalUuid(USER_MSG.invalidUserId),
    distributorId: optionalUuid(USER_MSG.invalidUserId),
    retailerId: optionalUuid(USER_MSG.invalidUserId),
    distributorMasterDistributorRef: optionalUuid(USER_MSG.invalidUserId),
  }),
);

const tags = ['account'];
const done = { 200: envelope(z.literal(true)) };
/** For the document: the user body by type; the route checks the caller's right to the type before its fields. */
const userCreateBody = documentedOnly(z.union(Object.values(userCreateSchemas)));
const userUpdateBody = documentedOnly(z.union([...Object.values(userUpdateSchemas), statusSchema]));

/**
 * `account/create` with type 0 (an admin): made as a command another admin approves (202 and the pending command).
 * The approvals module does that; app.ts hands it to this plugin, so the account module never imports approvals
 * (which imports account to carry such commands out).
 */
export type AdminCreation = (request: FastifyRequest) => Promise<{ result: WireCommand; message: string }>;

export default async function accountRoutes(
  fastify: FastifyInstance,
  { adminCreation }: { adminCreation: AdminCreation },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app;
  const people = peopleService({ db, config, cipher: app.cipher });

  // Per address, across every user name (password spraying): counted in PostgreSQL, so across every server.
  const perAddress = LOGIN_THROTTLE.perAddress;
  const addressLimit = {
    max: config.signInsPerAddress,
    timeWindow: perAddress.windowMinutes * 60_000,
    errorResponseBuilder: (_request: unknown, context: { ttl: number }) =>
      new HttpError(429, MSG.tooManyAddressAttempts(Math.max(1, Math.ceil(context.ttl / 60_000)))),
  };

  app.post(
    '/account/login',
    {
      config: { access: 'public', rateLimit: addressLimit },
      schema: {
        tags,
        summary: 'Sign in (user name or mobile number)',
        description: 'public',
        body: loginSchema,
        response: { 200: envelope(loginResultSchema) },
      },
    },
    async (request) => {
      const input = request.body;
      const user = await findLoginUser(db, input.userName);
      const account = accountKey(user, input.userName);
      // Checked before the password, so the right password is refused too while locked.
      // A refused sign-in is recorded under the name typed (masked when it is a mobile number), never the password.
      const refused = (locked: boolean, secondStep?: string) =>
        recordRefusal(
          db,
          request.log,
          publicActor(maskField('userName', input.userName) as string),
          request.ip,
          {
            action: 'user.login.failed',
            entity: 'user',
            entityId: user?.id ?? null,
            after: {
              userName: input.userName,
              ...(locked ? { locked: true } : {}),
              ...(secondStep ? { secondStep } : {}),
            },
          },
        );
      const lockedMinutes = await lockedForMinutes(db, account, request.ip);
      if (lockedMinutes > 0) {
        await refused(true);
        throw tooMany(MSG.tooManyAttempts(lockedMinutes), lockedMinutes);
      }
      const passwordOk = user
        ? await verifyPassword(user.passwordHash, input.password)
        : await verifyAgainstDummy(input.password);
      if (!user || !passwordOk) {
        await recordFailure(db, account, request.ip);
        await refused(false);
        throw unauthorized(MSG.invalidCredentials);
      }
      // A 403 below is recorded (modules/audit/refusals.ts) as this user's.
      request.auditActor = { id: user.id, kind: 'USER', name: user.name, type: user.type };
      // Only a caller who knows the password learns the account's type or status.
      if (user.type === UserType.CUSTOMER) throw forbidden(MSG.customerLoginRefused);
      if (user.status !== UserStatus.ACTIVE) throw forbidden(MSG.inactiveUser);
      // The second step: with it on, the code (or a recovery code) beside the right password, else a 401 that
      // asks for it and no session. The code is spent in the session's own transaction.
      const mfaEnabled = await hasSecondStep(db, user.id);
      const secondStep = !mfaEnabled
        ? undefined
        : input.otp !== undefined
          ? ('otp' as const)
          : input.recoveryCode !== undefined
            ? ('recoveryCode' as const)
            : undefined;
      if (mfaEnabled && !secondStep) throw secondStepRequired(MFA_MSG.codeRequired);
      const outcome = await inTransaction<{ token: string } | { refused: 'wrong' | 'used' }>(
        db,
        async (tx) => {
          if (secondStep) {
            const check =
              secondStep === 'otp'
                ? await checkCode(tx, app.cipher, user.id, input.otp!)
                : await spendRecoveryCode(tx, app.cipher, user.id, input.recoveryCode!);
            if (check !== 'ok') return { refused: check };
          }
          await clearFailures(tx, account, request.ip);
          const token = await issueSession(tx, user.id, config.sessionTtlHours, {
            carryWritePosition: Boolean(app.readRouter),
            ip: request.ip,
            userAgent: request.headers['user-agent'],
          });
          await auditRecorder(
            request.auditActor!,
            request.ip,
            'user.login',
            'user',
          )(tx, {
            entityId: user.id,
            after: secondStep ? { secondStep } : null,
          });
          return { token };
        },
      );
      if ('refused' in outcome) {
        // A wrong code is a wrong password: the same counters and lock-outs.
        await recordFailure(db, account, request.ip);
        await refused(false, secondStep);
        throw secondStepRequired(codeRefusal(outcome.refused, secondStep!));
      }
      const mfaSetupRequired = mustSetUpSecondStep({ ...user, mfaEnabled }, config.mfaRequiredFor);
      return {
        result: { token: outcome.token, user: { ...toWireUser(user), mfaEnabled, mfaSetupRequired } },
        message: MSG.loginSuccess,
      };
    },
  );

  app.post(
    '/account/logout',
    {
      config: { access: 'session' },
      schema: { tags, summary: 'Sign out', description: 'session', response: done },
    },
    async (request) => {
      const { user, tokenHash } = caller(request);
      await runCommand(request, { action: 'user.logout', entity: 'user' }, async (tx) => {
        await revokeSession(tx, tokenHash);
        return { entityId: user.id, result: true };
      });
      return { result: true as const, message: MSG.loggedOut };
    },
  );

  /**
   * One user by `_id` (404 when outside the caller's network), or a page of one `type`. Always bounded by the caller's network (networkScope):
   * parent filters can only narrow it, so a forged id outside the network returns nothing.
   */
  app.get(
    '/account/fetch',
    {
      config: { access: 'session', ...listReads() },
      schema: {
        tags,
        summary: 'Users of one type, or one user by _id, within the caller’s network',
        description: 'session (the role table decides which types)',
        querystring: fetchQuery,
        response: { 200: envelope(userFetchResultSchema) },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const q = request.query;
      // Before the initial password is changed, or a required second step set up, a user may read only itself.
      const mfaSetupRequired = mustSetUpSecondStep(user, config.mfaRequiredFor);
      if ((!user.passwordUpdatedAt || mfaSetupRequired) && (q._id !== user.id || q.type !== undefined)) {
        throw forbidden(!user.passwordUpdatedAt ? MSG.passwordChangeRequired : MFA_MSG.setupRequired);
      }
      if (q.type === undefined && !q._id) throw badRequest('Query type or _id is required', 'type');
      if (q.type !== undefined && !can(user.type as UserType, USER_TYPE_RESOURCE[q.type], 'read'))
        throw forbidden();
      const search = q.searchText?.replace(/\s+/g, '');
      const filter = {
        id: q._id,
        masterDistributorId: q.masterDistributorId ?? q.distributorMasterDistributorRef,
        distributorId: q.distributorId,
        retailerId: q.retailerId,
        searchText: q.searchText,
        aadharHash: search && /^\d{12}$/.test(search) ? app.cipher.searchHash(search) : undefined,
      };
      const page = { limit: q.limit, offset: offsetOf(q) };
      if (q.type !== undefined) {
        const {
          users: items,
          total,
          capped,
        } = await listWireUsers(request.reader, user, { ...filter, type: q.type }, page);
        return { result: { users: items, totalCounts: total, ...cappedMark(capped) } };
      }
      const { users: found } = await listWireUsers(db, user, filter, page);
      // One record by _id: shown only if the caller may read its type (an employee's record is ADMIN's).
      const readable = found.filter(
        (u) => u._id === user.id || can(user.type as UserType, USER_TYPE_RESOURCE[u.type] ?? 'none', 'read'),
      );
      if (readable.length === 0) throw notFound(USER_MSG.userNotFound);
      // One's own record says whether one's second step is on, or must be set up.
      const own = (u: (typeof readable)[number]) =>
        u._id === user.id ? { ...u, mfaEnabled: user.mfaEnabled, mfaSetupRequired } : u;
      return { result: { users: readable.map(own), totalCounts: readable.length } };
    },
  );

  app.post(
    '/account/create',
    {
      schema: {
        tags,
        summary:
          'Create a user of a type; an admin (type 0) is a command another admin approves (202 and the command)',
        description: 'private (the role table decides which types)',
        body: userCreateBody,
        response: { 200: envelope(wireUserSchema), 202: envelope(wireCommandSchema) },
      },
    },
    async (request, reply) => {
      const { type } = (request.body ?? {}) as { type?: unknown };
      if (type === UserType.ADMIN || type === String(UserType.ADMIN)) {
        const answer = await adminCreation(request);
        reply.code(202);
        return answer;
      }
      return people.create(caller(request).user, request.body, {
        audit: requestRecorder(request, 'user.create', 'user'),
      });
    },
  );

  app.post(
    '/account/update/:id',
    {
      schema: {
        tags,
        summary: 'Edit a user, or change its status (`{ status }` alone)',
        description: 'private (the role table decides which types; status: ADMIN)',
        params: idParam,
        body: userUpdateBody,
        response: { 200: envelope(wireUserSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return people.update(caller(request).user, id, request.body, {
        update: requestRecorder(request, 'user.update', 'user'),
        status: requestRecorder(request, 'user.status', 'user'),
      });
    },
  );

  app.post(
    '/account/resetPassword',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Change one’s own password (ends every other session)',
        description: 'session',
        body: resetPasswordSchema,
        response: done,
      },
    },
    async (request) => {
      const { user, tokenHash } = caller(request);
      const input = request.body;
      // A wrong old password is a password guess like a failed sign-in: same counter, same lock.
      const lockedMinutes = await lockedForMinutes(db, user.id, request.ip);
      const refused = (locked: boolean) =>
        recordRefusal(db, request.log, actorOf(request), request.ip, {
          action: 'user.password.failed',
          entity: 'user',
          entityId: user.id,
          after: locked ? { locked: true } : null,
        });
      if (lockedMinutes > 0) {
        await refused(true);
        throw tooMany(MSG.tooManyPasswordAttempts(lockedMinutes), lockedMinutes);
      }
      const passwordHash = await passwordHashOf(db, user.id);
      if (!passwordHash || !(await verifyPassword(passwordHash, input.oldPassword))) {
        await recordFailure(db, user.id, request.ip);
        await refused(false);
        throw badRequest(MSG.wrongOldPassword, 'oldPassword');
      }
      if (input.newPassword === input.oldPassword) throw badRequest(MSG.passwordSameAsOld, 'newPassword');
      const newHash = await hashPassword(input.newPassword);
      await runCommand(request, { action: 'user.password', entity: 'user' }, async (tx) => {
        const passwordUpdatedAt = new Date();
        await tx.update(users).set({ passwordHash: newHash, passwordUpdatedAt }).where(eq(users.id, user.id));
        await revokeOtherSessions(tx, user.id, tokenHash);
        await clearFailures(tx, user.id, request.ip);
        return {
          entityId: user.id,
          before: { passwordUpdatedAt: user.passwordUpdatedAt?.toISOString() ?? null },
          after: { passwordUpdatedAt: passwordUpdatedAt.toISOString() },
          result: true,
        };
      });
      return { result: true as const, message: MSG.passwordUpdated };
    },
  );
}
