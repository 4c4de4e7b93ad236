import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { MFA_MSG } from '../../shared/constants/mfa';
import { ALL_USER_TYPES, USER_TYPE_NAMES, UserStatus, UserType } from '../../shared/enums';
import { MSG } from '../../shared/messages';
import { can } from '../../shared/roles';
import type { ReadNeeds } from '../db/replica';
import { forbidden, unauthorized } from './errors';
import { rideThrough } from './failover';
import { replicaMayAnswer } from './reader';
import { lookupSession, type SessionUser } from './session-token';

/**
 * Who may call a route: `public` (no token), `optional` (anyone; a valid token identifies the caller),
 * `session` (signed in, allowed before the initial password is changed and before a required second step is set
 * up: fetch-self, resetPassword, logout), `second-step` (signed in with a chosen password, allowed before a required
 * second step is set up: its set-up) or, by default, `private` (signed in with a chosen password, and with the
 * second step on when it is required).
 */
export type RouteAccess = 'public' | 'optional' | 'session' | 'second-step' | 'private';

/**
 * Whether the user must set up a second step (TOTP) before anything else: its type is in MFA_REQUIRED_FOR, or it
 * was marked for it (a new admin, a reset second step), and it is not on.
 */
export const mustSetUpSecondStep = (
  user: Pick<SessionUser, 'type' | 'mfaEnabled' | 'mfaSetupRequired'>,
  requiredFor: readonly number[],
) => !user.mfaEnabled && (user.mfaSetupRequired || requiredFor.includes(user.type));

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** false: a server-to-server route authenticated otherwise (the partner's signed callback). */
    xsrf?: boolean;
  }
  interface FastifyRequest {
    /** `wal`: for a read the replica may answer, the WAL positions it is measured against (db/replica.ts). */
    auth: { user: SessionUser; tokenHash: string; wal?: ReadNeeds } | null;
    /** The token's user even when the guard refuses it (inactive, customer, initial password): for the trail. */
    identifiedUser: SessionUser | null;
  }
}

const BEARER = /^bearer\s+(\S+)$/i;

/**
 * Authenticates every route of the scope it is registered in (`/api/v1`) from the `X-auth-token: bearer
 * <token>` header, by the route's own `config.access`: the route that answers decides, however its path was
 * spelled.
 */
export const sessionGuard = fp(
  async (api: FastifyInstance) => {
    api.decorateRequest('auth', null);
    api.decorateRequest('identifiedUser', null);
    api.addHook('onRequest', async (request) => {
      const access: RouteAccess = request.routeOptions.config.access ?? 'private';
      if (access === 'public') return;
      const header = request.headers['x-auth-token'];
      const token = typeof header === 'string' ? BEARER.exec(header.trim())?.[1] : undefined;
      if (!token && access === 'optional') return;
      if (!token) throw unauthorized(MSG.authRequired);
      // Read from the database on every call, before the route's own work: nothing of the call has run yet, so
      // the look-up waits for a primary through a failover, whatever the call.
      const found = await rideThrough(api.db, () =>
        lookupSession(api.db, token, {
          wal: Boolean(api.readRouter) && replicaMayAnswer(request),
          ip: request.ip,
        }),
      );
      if (found.kind === 'missing') throw unauthorized(MSG.invalidSession);
      if (found.kind === 'expired') throw unauthorized(MSG.sessionExpired);
      request.identifiedUser = found.user;
      // Status and type are read fresh on every call, so deactivation locks a user out at once.
      if (found.user.status !== UserStatus.ACTIVE) throw unauthorized(MSG.inactiveUser);
      if (found.user.type === UserType.CUSTOMER) throw forbidden(MSG.customerLoginRefused);
      if ((access === 'private' || access === 'second-step') && !found.user.passwordUpdatedAt)
        throw forbidden(MSG.passwordChangeRequired);
      if (access === 'private' && mustSetUpSecondStep(found.user, api.config.mfaRequiredFor))
        throw forbidden(MFA_MSG.setupRequired);
      request.auth = { user: found.user, tokenHash: found.tokenHash, wal: found.wal };
    });
  },
  { name: 'session-guard' },
);

/** The signed-in caller; only call from non-public routes. */
export function caller(request: FastifyRequest) {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/**
 * Route guard from the shared role table (the same table the panel's canAccess reads). Registered as the route's
 * `preValidation`, so a caller without the right is refused (403) before its input is judged.
 */
export const requireRole = (resource: string, action: string) => async (request: FastifyRequest) => {
  if (!can(caller(request).user.type as UserType, resource, action)) throw forbidden();
};

/** Who may call a route guarded by requireRole, for the OpenAPI document ("ADMIN, EMPLOYEE"). */
export const whoMay = (resource: string, action: string) =>
  ALL_USER_TYPES.filter((type) => can(type, resource, action))
    .map((type) => USER_TYPE_NAMES[type])
    .join(', ');

/**
 * A route guarded by the role table: its role check (before validation) and its schema, described in the OpenAPI
 * document with who may call it.
 */
export const guarded = <S extends FastifySchema>(resource: string, action: string, schema: S) => ({
  preValidation: requireRole(resource, action),
  schema: { ...schema, description: whoMay(resource, action) },
});
