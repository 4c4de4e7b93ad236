import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { UserStatus, UserType } from '../../../shared/enums';
import { MSG } from '../../../shared/messages';
import { loginSchema, resetPasswordSchema } from '../../../shared/schemas/account';
import { users } from '../../db/schema';
import { badRequest, forbidden, HttpError, parseInput, unauthorized } from '../../http/errors';
import { caller } from '../../http/session';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords';
import { issueSession, revokeOtherSessions, revokeSession } from './sessions';
import { clearFailures, lockedForMinutes, recordFailure } from './throttle';
import { fetchVisibleUser, findLoginUser } from './users';
import { toWireUser } from './wire';

const fetchQuery = z.object({ _id: z.uuid({ error: 'Invalid user id' }) });

export default async function accountRoutes(app: FastifyInstance) {
  const { db, config } = app;

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

  app.get('/account/fetch', { config: { access: 'session' } }, async (request) => {
    const { user } = caller(request);
    const query = parseInput(fetchQuery, request.query);
    // Before the initial password is changed a user may read only itself.
    if (!user.passwordUpdatedAt && query._id !== user.id) throw forbidden(MSG.passwordChangeRequired);
    const found = await fetchVisibleUser(db, user, query._id);
    return { result: { users: found, totalCounts: found.length } };
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
