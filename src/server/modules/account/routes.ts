import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { UserStatus, UserType } from '../../../shared/enums';
import { MSG } from '../../../shared/messages';
import { can, USER_TYPE_RESOURCE } from '../../../shared/roles';
import { loginSchema, resetPasswordSchema } from '../../../shared/schemas/account';
import { USER_MSG, userTypeField } from '../../../shared/schemas/users';
import { users } from '../../db/schema';
import { badRequest, forbidden, HttpError, notFound, parseInput, unauthorized } from '../../http/errors';
import { offsetOf, pagingQuery } from '../../http/paging';
import { idParam, optionalUuid } from '../../http/params';
import { caller } from '../../http/session';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords';
import { peopleService } from './people';
import { issueSession, revokeOtherSessions, revokeSession } from './sessions';
import { clearFailures, lockedForMinutes, recordFailure } from './throttle';
import { findLoginUser, listWireUsers } from './users';
import { toWireUser } from './wire';

const fetchQuery = pagingQuery.and(
  z.object({
    type: userTypeField.optional(),
    _id: optionalUuid(USER_MSG.invalidUserId),
    masterDistributorId: optionalUuid(USER_MSG.invalidUserId),
    distributorId: optionalUuid(USER_MSG.invalidUserId),
    retailerId: optionalUuid(USER_MSG.invalidUserId),
    distributorMasterDistributorRef: optionalUuid(USER_MSG.invalidUserId),
  }),
);

export default async function accountRoutes(app: FastifyInstance) {
  const { db, config } = app;
  const people = peopleService({ db, config, cipher: app.cipher });

  app.post('/account/login', { config: { access: 'public' } }, async (request) => {
    const input = parseInput(loginSchema, request.body);
    const lockedMinutes = await lockedForMinutes(db, input.userName);
    if (lockedMinutes > 0) {
      throw new HttpError(429, MSG.tooManyAttempts(lockedMinutes), undefined, {
        'retry-after': String(lockedMinutes * 60),
      });
    }
    const user = await findLoginUser(db, input.userName);
    const passwordOk = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyAgainstDummy(input.password);
    if (!user || !passwordOk) {
      await recordFailure(db, input.userName);
      throw unauthorized(MSG.invalidCredentials);
    }
    // Only a caller who knows the password learns the account's type or status.
    if (user.type === UserType.CUSTOMER) throw forbidden(MSG.customerLoginRefused);
    if (user.status !== UserStatus.ACTIVE) throw forbidden(MSG.inactiveUser);
    await clearFailures(db, input.userName);
    const token = await issueSession(db, user.id, config.sessionTtlHours);
    return { result: { token, user: toWireUser(user) }, message: MSG.loginSuccess };
  });

  app.post('/account/logout', { config: { access: 'session' } }, async (request) => {
    await revokeSession(db, caller(request).tokenHash);
    return { result: true, message: MSG.loggedOut };
  });

  /**
   * One user by `_id` (404 when outside the caller's network), or a page of one `type`. Always bounded by the caller's network (networkScope):
   * parent filters can only narrow it, so a forged id outside the network returns nothing.
   */
  app.get('/account/fetch', { config: { access: 'session' } }, async (request) => {
    const { user } = caller(request);
    const q = parseInput(fetchQuery, request.query);
    // Before the initial password is changed a user may read only itself.
    if (!user.passwordUpdatedAt && (q._id !== user.id || q.type !== undefined)) {
      throw forbidden(MSG.passwordChangeRequired);
    }
    if (q.type === undefined && !q._id) throw badRequest('Query type or _id is required', 'type');
    if (q.type !== undefined && !can(user.type as UserType, USER_TYPE_RESOURCE[q.type], 'read'))
      throw forbidden();
    const search = q.searchText?.replace(/\s+/g, '');
    const { users: found, total } = await listWireUsers(
      db,
      user,
      {
        type: q.type,
        id: q._id,
        masterDistributorId: q.masterDistributorId ?? q.distributorMasterDistributorRef,
        distributorId: q.distributorId,
        retailerId: q.retailerId,
        searchText: q.searchText,
        aadharHash: search && /^\d{12}$/.test(search) ? app.cipher.searchHash(search) : undefined,
      },
      { limit: q.limit, offset: offsetOf(q) },
    );
    if (q.type !== undefined) return { result: { users: found, totalCounts: total } };
    // One record by _id: shown only if the caller may read its type (an employee's record is ADMIN's).
    const readable = found.filter(
      (u) => u._id === user.id || can(user.type as UserType, USER_TYPE_RESOURCE[u.type] ?? 'none', 'read'),
    );
    if (readable.length === 0) throw notFound(USER_MSG.userNotFound);
    return { result: { users: readable, totalCounts: readable.length } };
  });

  app.post('/account/create', async (request) => people.create(caller(request).user, request.body));

  app.post('/account/update/:id', async (request) => {
    const { id } = parseInput(idParam, request.params);
    return people.update(caller(request).user, id, request.body);
  });

  app.post('/account/resetPassword', { config: { access: 'session' } }, async (request) => {
    const { user, tokenHash } = caller(request);
    const input = parseInput(resetPasswordSchema, request.body);
    if (!(await verifyPassword(user.passwordHash, input.oldPassword))) {
      throw badRequest(MSG.wrongOldPassword, 'oldPassword');
    }
    if (input.newPassword === input.oldPassword) throw badRequest(MSG.passwordSameAsOld, 'newPassword');
    const passwordHash = await hashPassword(input.newPassword);
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ passwordHash, passwordUpdatedAt: new Date() })
        .where(eq(users.id, user.id));
      await revokeOtherSessions(tx, user.id, tokenHash);
    });
    return { result: true, message: MSG.passwordUpdated };
  });
}
