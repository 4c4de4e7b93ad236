import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify from 'fastify';
import type { Config } from '../config';

export const isHttps = (config: Config) => config.publicUrl?.startsWith('https://') ?? false;

/**
 * The security headers of everything the server sends: the one place they are decided, given to @fastify/helmet
 * (app.ts). The built panel loads only module scripts from its own origin, so scripts need no 'unsafe-inline'; MUI
 * (emotion) injects <style> elements at run time, so styles do. No page has an inline script, so no nonces.
 */
export function helmetOptions(config: Config): FastifyHelmetOptions {
  return {
    global: true,
    enableCSPNonces: false,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        // The panel's service worker (/sw.js) and web app manifest (/manifest.webmanifest), both its own files.
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        // A lead's PDF opens from a blob: URL in a new tab, whose document inherits this policy; Chromium
        // shows it through its plugin, so blob: stays allowed (headless Chromium shows no PDF to test).
        objectSrc: ["'self'", 'blob:'],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(isHttps(config) ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: isHttps(config) ? { maxAge: 15_552_000, includeSubDomains: false } : false,
  };
}

/**
 * The same headers as name and value, for the answers written where no hook runs: the router's refusals and those
 * written on the socket before a request exists (http/router-errors.ts). Read once at start off one answer of a bare
 * Fastify app with @fastify/helmet and the same options: what its hooks set before the handler runs is exactly what
 * every answer of the server carries (nothing in the policy depends on the request).
 */
export async function securityHeaderList(config: Config): Promise<Record<string, string>> {
  const probe = Fastify();
  try {
    await probe.register(helmet, helmetOptions(config));
    probe.get('/', (_request, reply) => reply.send(reply.getHeaders()));
    const answer = await probe.inject({ method: 'GET', url: '/' });
    const list = answer.json() as Record<string, string | number | string[]>;
    return Object.fromEntries(Object.entries(list).map(([name, value]) => [name, String(value)]));
  } finally {
    await probe.close();
  }
}
