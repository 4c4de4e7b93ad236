import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type pg from 'pg';
import type { Config } from './config';
import type { Db } from './db/open';
import { ReplicaRouter } from './db/replica';
import { RunnerLocks } from './db/runner-lock';
import { apiGuards } from './http/api';
import { apiDocs } from './http/docs';
import { notFoundJson, registerErrorHandler } from './http/errors';
import { healthRoute } from './http/health';
import { postgresRateLimitStore } from './http/rate-limit';
import { routerErrorOptions } from './http/router-errors';
import { zodValidatorCompiler } from './http/schemas';
import { helmetOptions, isHttps, securityHeaderList } from './http/security-headers';
import { trustProxyOption } from './http/trust-proxy';
import { xsrfCookie } from './http/xsrf';
import {
  accountRoutes,
  securityRoutes,
  signInNameClashWarning,
  throttlePruning,
} from './modules/account/index';
import { adminCreation, approvalRoutes } from './modules/approvals/index';
import { auditRefusals, auditRoutes } from './modules/audit/index';
import { booksRoutes } from './modules/books/index';
import { catalogRoutes } from './modules/catalog/index';
import { eventRoutes } from './modules/events/index';
import { importRoutes } from './modules/imports/index';
import { leadRoutes } from './modules/leads/index';
import { ledgerRoutes, startSettlementJob } from './modules/ledger/index';
import { locationRoutes } from './modules/locations/index';
import { notificationRoutes, startNotificationRunner } from './modules/notifications/index';
import { partnerCallback, partnerRoutes, sandboxPartner, selfOrigin } from './modules/partner/index';
import { reportRoutes } from './modules/reports/index';
import { salesRoutes } from './modules/sales/index';
import { statementRoutes } from './modules/statements/index';
import { tdsRoutes } from './modules/tds/index';
import type { PersonalDataCipher } from './security/personal-data';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    cipher: PersonalDataCipher;
    /** Seals ledger postings (modules/ledger/seal.ts). */
    ledgerKey: Buffer;
    /** Verifies the partner's callbacks (and signs the sandbox partner's). */
    webhookSecret: string;
    /** One runner at a time across servers: the settlement job, each import (db/runner-lock.ts). */
    runners: RunnerLocks;
  }
}

export interface AppDeps {
  config: Config;
  db: Db;
  /** The read replica (Database.replica): list and report reads go there when it may answer them. */
  replica?: { db: Db; pool: pg.Pool };
  cipher: PersonalDataCipher;
  ledgerKey: Buffer;
  webhookSecret: string;
  /** false = no logs (tests); otherwise overrides of the level and the destination stream. */
  logger?: false | { level?: string; stream?: { write(line: string): void } };
  /** Sees every route as it is added (tests use it to reach every route the app has). */
  onRoute?: (route: RouteOptions) => void;
}

/**
 * Search text can be personal data (an Aadhar number, a name, a mobile): request URLs are logged without
 * query values, and the session and cookie headers never.
 */
const redactQuery = (url: string) => url.replace(/([?&][^=&]+)=[^&]*/g, '$1=~');

function loggerOptions(config: Config, override: AppDeps['logger']) {
  if (override === false) return false;
  return {
    level: override?.level ?? config.logLevel,
    ...(override?.stream ? { stream: override.stream } : {}),
    redact: ['req.headers["x-auth-token"]', 'req.headers.cookie', 'req.headers["x-xsrf-token"]'],
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactQuery(req.url),
        ip: req.ip,
      }),
    },
  };
}

/**
 * The panel's caching: files under assets/ are named by the hash of their content (Vite), so they never change
 * and are cached for a year; everything else (index.html, the service worker sw.js and the manifest above all)
 * is checked with the server on every visit, so a new build reaches the browser at its next visit.
 */
export function cacheControlFor(webDir: string, file: string) {
  const relative = path.relative(webDir, file).split(path.sep);
  return relative[0] === 'assets' ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * Builds the Fastify app: external plugins (headers, cookies, rate limits), then the `/api` scope with its
 * JSON 404 and, inside it, `/api/v1` with the guards and the route folders; the built panel outside it.
 */
export async function buildApp({
  config,
  db,
  replica,
  cipher,
  ledgerKey,
  webhookSecret,
  logger,
  onRoute,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, logger),
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxyOption(config.trustProxy),
    // Every spelling of a path reaches the same route, and so the same guards (they run on the route).
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, caseSensitive: false },
    // A request body still arriving after five minutes is cut off (408) rather than held open forever.
    requestTimeout: 300_000,
    // What Fastify answers before any route or hook (a path that cannot be decoded, a request Node cannot read):
    // the envelope, with the same security headers.
    ...routerErrorOptions(await securityHeaderList(config)),
  });
  if (onRoute) app.addHook('onRoute', onRoute);
  // Routes declare their parts and answers with the shared zod schemas (src/shared): validated by them, answers
  // checked against them and written by fastify-type-provider-zod's serializer (an answer that does not match its
  // schema is a 500, never half an answer; undeclared fields of a plain object are left out), and the OpenAPI
  // document built from them.
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', db);
  app.decorate(
    'readRouter',
    replica
      ? new ReplicaRouter(replica, {
          maxLagSeconds: config.replicaMaxLagSeconds,
          log: { warn: (message) => app.log.warn(message), info: (message) => app.log.info(message) },
        })
      : null,
  );
  app.decorate('config', config);
  app.decorate('cipher', cipher);
  app.decorate('ledgerKey', ledgerKey);
  app.decorate('webhookSecret', webhookSecret);
  const runners = new RunnerLocks({ db, databaseUrl: config.databaseUrl, log: app.log });
  app.decorate('runners', runners);

  // The security headers (http/security-headers.ts), on every answer that passes the hooks.
  await app.register(helmet, helmetOptions(config));
  await app.register(cookie);
  // Per-address limits, set per route through `config.rateLimit`, counted in PostgreSQL (http/rate-limit.ts):
  // every server on the database counts the same requests, so adding servers does not multiply a limit.
  await app.register(rateLimit, { global: false, store: postgresRateLimitStore(db) });
  registerErrorHandler(app);
  await app.register(xsrfCookie, { secure: isHttps(config) });
  await app.register(throttlePruning);
  await app.register(signInNameClashWarning);
  // The load balancer's health check, at the root: it answers for this server and its primary database.
  await app.register(healthRoute);

  await app.register(
    async (api) => {
      registerErrorHandler(api);
      await api.register(apiDocs);
      api.setNotFoundHandler(notFoundJson);
      // API answers are personal and change with every write: never cached, by browsers or proxies.
      api.addHook('onSend', async (_request, reply) => {
        reply.header('cache-control', 'no-store');
      });
      await api.register(
        async (v1) => {
          await v1.register(apiGuards);
          await v1.register(auditRefusals);
          await v1.register(accountRoutes, { adminCreation });
          await v1.register(securityRoutes);
          await v1.register(reportRoutes);
          await v1.register(locationRoutes);
          await v1.register(catalogRoutes);
          await v1.register(leadRoutes);
          await v1.register(partnerRoutes);
          await v1.register(salesRoutes);
          await v1.register(partnerCallback);
          await v1.register(ledgerRoutes);
          await v1.register(tdsRoutes);
          await v1.register(booksRoutes);
          await v1.register(approvalRoutes);
          await v1.register(statementRoutes);
          await v1.register(auditRoutes);
          await v1.register(importRoutes);
          await v1.register(notificationRoutes);
          await v1.register(eventRoutes);
        },
        { prefix: '/v1' },
      );
    },
    { prefix: '/api' },
  );

  if (config.providerMode === 'sandbox')
    await app.register(sandboxPartner, { webhookSecret, selfOrigin: () => selfOrigin(app) });

  // Commissions older than SETTLEMENT_DELAY_HOURS move to available; 0 disables the job (tests run it by hand).
  let stopJob: (() => Promise<void>) | undefined;
  if (config.settlementIntervalMs > 0)
    app.addHook('onReady', async () => {
      stopJob = startSettlementJob(db, ledgerKey, {
        runners,
        delayHours: config.settlementDelayHours,
        intervalMs: config.settlementIntervalMs,
        tds: config.tds,
        log: app.log,
      });
    });
  // The outbox's delivery job (issue 55); an interval of 0 disables it (most tests).
  let stopNotifications: (() => Promise<void>) | undefined;
  if (config.notify.intervalMs > 0)
    app.addHook('onReady', async () => {
      stopNotifications = startNotificationRunner(db, config.notify, { runners, log: app.log });
    });
  // After the routes' own (the imports' waits for their jobs run first: they are in child scopes).
  app.addHook('onClose', async () => {
    await stopJob?.();
    await stopNotifications?.();
    await runners.close();
  });

  const webDir =
    config.webDir && fs.existsSync(path.join(config.webDir, 'index.html')) ? config.webDir : undefined;
  if (webDir)
    await app.register(fastifyStatic, {
      root: webDir,
      index: 'index.html',
      // The build writes .br and .gz copies of every asset (vite.config.ts): sent as the browser accepts them.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, file) => res.setHeader('cache-control', cacheControlFor(webDir, file)),
    });
  app.setNotFoundHandler((request, reply) => {
    // Panel routes (/home, /auth, ...) are client-side: hand them the app shell. An unknown API path reaches
    // here too (the static files' wildcard route answers it first), and stays a JSON 404.
    const isApi = /^\/+api(\/|$)/i.test(request.url);
    if (webDir && request.method === 'GET' && !isApi)
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    return notFoundJson(request, reply);
  });
  return app;
}
