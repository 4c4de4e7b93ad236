import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { Config } from '../config';

export const isHttps = (config: Config) => config.publicUrl?.startsWith('https://') ?? false;

/**
 * The security headers of everything the server sends: the one place they are decided. The built panel loads only
 * module scripts from its own origin, so scripts need no 'unsafe-inline'; MUI (emotion) injects <style> elements at
 * run time, so styles do.
 */
function helmetOptions(config: Config) {
  return {
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
    frameguard: { action: 'deny' as const },
    referrerPolicy: { policy: 'no-referrer' as const },
    hsts: isHttps(config) ? { maxAge: 15_552_000, includeSubDomains: false } : false,
  };
}

export interface SecurityHeaders {
  /** Sets the headers on an answer that runs the app's hooks (Connect's signature: the onRequest hook calls it). */
  middleware: ReturnType<typeof helmet>;
  /**
   * The same headers as name and value, for the answers written where no hook runs: the router's refusals and
   * those written on the socket before a request exists (http/router-errors.ts).
   */
  list: Record<string, string>;
}

/**
 * Helmet's middleware, built once from the policy above (the Fastify plugin built it again for every request: its
 * policy parsed each time, a visible share of a cheap call's CPU for a result that never changes), and what it sets,
 * read once by running it on a response that only records. Nothing in the policy depends on the request, so every
 * answer gets the same headers.
 */
export function securityHeaders(config: Config): SecurityHeaders {
  const middleware = helmet(helmetOptions(config));
  const list: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      list[name] = String(value);
    },
    removeHeader(name: string) {
      delete list[name];
    },
  };
  let failed: unknown;
  let done = false;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failed = error;
    done = true;
  });
  if (!done || failed) throw new Error('helmet did not set its headers at once', { cause: failed });
  return { middleware, list };
}
