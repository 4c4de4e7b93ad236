import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MSG } from '../../shared/messages';
import { forbidden } from './errors';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false` exempts a route from the XSRF check: only for calls that no browser session makes and that
     * authenticate themselves another way (a partner's callback signed with an HMAC over the raw body).
     */
    xsrf?: boolean;
  }
}

const sameToken = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Double-submit XSRF protection, part one (whole app): every response to a request without the cookie issues
 * one, readable by the panel's script. `Secure` when the public URL is https, even if TLS ends at a proxy.
 */
export const xsrfCookie = fp(
  async (app: FastifyInstance, opts: { secure: boolean }) => {
    app.addHook('onRequest', async (request, reply) => {
      if (request.cookies[XSRF_COOKIE]) return;
      reply.setCookie(XSRF_COOKIE, randomBytes(24).toString('base64url'), {
        path: '/',
        sameSite: 'strict',
        httpOnly: false,
        secure: opts.secure || request.protocol === 'https',
      });
    });
  },
  { name: 'xsrf-cookie', dependencies: ['@fastify/cookie'] },
);

/**
 * Part two (registered inside `/api/v1`): every state-changing request to a route of that scope must echo the
 * cookie in X-XSRF-TOKEN. The route that answers decides, however its path was spelled.
 */
export const xsrfGuard = fp(
  async (api: FastifyInstance) => {
    api.addHook('onRequest', async (request) => {
      if (SAFE_METHODS.has(request.method) || request.routeOptions.config.xsrf === false) return;
      const cookie = request.cookies[XSRF_COOKIE];
      const header = request.headers[XSRF_HEADER];
      if (!cookie || typeof header !== 'string' || !sameToken(cookie, header))
        throw forbidden(MSG.xsrfRefused);
    });
  },
  { name: 'xsrf-guard' },
);
