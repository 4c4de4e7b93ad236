import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UserStatus, UserType } from '../../shared/enums';
import { MSG } from '../../shared/messages';
import { can } from '../../shared/roles';
import { lookupSession, type UserRow } from '../modules/account/sessions';
import { forbidden, unauthorized } from './errors';

/**
 * Who may call a route: `public` (no token), `optional` (anyone; a valid token identifies the caller),
 * `session` (signed in, allowed before the initial password is
 * changed: fetch-self, resetPassword, logout) or, by default, `private` (signed in with a chosen password).
 */
export type RouteAccess = 'public' | 'optional' | 'session' | 'private';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** false: a server-to-server route authenticated otherwise (the partner's signed callback). */
    xsrf?: boolean;
  }
  interface FastifyRequest {
    auth: { user: UserRow; tokenHash: string } | null;
  }
}

const BEARER = /^bearer\s+(\S+)$/i;

/** Authenticates every /api route that is not public, from the `X-auth-token: bearer <token>` header. */
export function registerSessionGuard(app: FastifyInstance) {
  app.decorateRequest('auth', null);
  app.addHook('preHandler', async (request) => {
    // Unknown routes fall through to the JSON 404, whoever asks.
    if (request.is404 || !request.url.startsWith('/api/')) return;
    const access: RouteAccess = request.routeOptions.config.access ?? 'private';
    if (access === 'public') return;
    const header = request.headers['x-auth-token'];
    const token = typeof header === 'string' ? BEARER.exec(header.trim())?.[1] : undefined;
    if (!token && access === 'optional') return;
    if (!token) throw unauthorized(MSG.authRequired);
    const found = await lookupSession(app.db, token);
    if (found.kind === 'missing') throw unauthorized(MSG.invalidSession);
    if (found.kind === 'expired') throw unauthorized(MSG.sessionExpired);
    // Status and type are read fresh on every call, so deactivation locks a user out at once.
    if (found.user.status !== UserStatus.ACTIVE) throw unauthorized(MSG.inactiveUser);
    if (found.user.type === UserType.CUSTOMER) throw forbidden(MSG.customerLoginRefused);
    if (access === 'private' && !found.user.passwordUpdatedAt) throw forbidden(MSG.passwordChangeRequired);
    request.auth = { user: found.user, tokenHash: found.tokenHash };
  });
}

/** The signed-in caller; only call from non-public routes. */
export function caller(request: FastifyRequest) {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/** Route guard from the shared role table (the same table the panel's canAccess reads). */
export const requireRole = (resource: string, action: string) => async (request: FastifyRequest) => {
  if (!can(caller(request).user.type as UserType, resource, action)) throw forbidden();
};
