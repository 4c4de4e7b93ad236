import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { LEAD_FILES } from '../shared/schemas/leads';
import type { Config } from './config';
import type { Db } from './db/open';
import { registerErrorHandling } from './http/errors';
import { registerSessionGuard } from './http/session';
import { registerXsrf } from './http/xsrf';
import accountRoutes from './modules/account/routes';
import catalogRoutes from './modules/catalog/routes';
import leadRoutes from './modules/leads/routes';
import ledgerRoutes from './modules/ledger/routes';
import { startSettlementJob } from './modules/ledger/settlement';
import locationRoutes from './modules/locations/routes';
import partnerRoutes, { selfOrigin } from './modules/partner/routes';
import sandboxPartner from './modules/partner/sandbox';
import reportRoutes from './modules/reports/routes';
import salesRoutes from './modules/sales/routes';
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
  }
}

export interface AppDeps {
  config: Config;
  db: Db;
  cipher: PersonalDataCipher;
  ledgerKey: Buffer;
  webhookSecret: string;
  /** false = no logs (tests); otherwise overrides of the level and the destination stream. */
  logger?: false | { level?: string; stream?: { write(line: string): void } };
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

/** Builds the Fastify app: plugins, then the app's own guards, then the /api/v1 route folders. */
export async function buildApp({
  config,
  db,
  cipher,
  ledgerKey,
  webhookSecret,
  logger,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, logger),
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
  });
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('cipher', cipher);
  app.decorate('ledgerKey', ledgerKey);
  app.decorate('webhookSecret', webhookSecret);

  await app.register(cookie);
  // Only leads/create takes multipart; its per-file limits are checked while streaming (modules/leads).
  await app.register(multipart, {
    limits: {
      fileSize: LEAD_FILES.document.maxBytes + 1,
      files: 2,
      fields: 10,
      parts: 12,
      fieldSize: 64 * 1024,
      headerPairs: 50,
    },
  });
  const webDir =
    config.webDir && fs.existsSync(path.join(config.webDir, 'index.html')) ? config.webDir : undefined;
  if (webDir) await app.register(fastifyStatic, { root: webDir, index: 'index.html' });
  registerErrorHandling(app, { serveSpa: () => !!webDir });
  registerXsrf(app);
  registerSessionGuard(app);

  await app.register(
    async (api) => {
      await api.register(accountRoutes);
      await api.register(reportRoutes);
      await api.register(locationRoutes);
      await api.register(catalogRoutes);
      await api.register(leadRoutes);
      await api.register(partnerRoutes);
      await api.register(salesRoutes);
      await api.register(ledgerRoutes);
    },
    { prefix: '/api/v1' },
  );
  if (config.providerMode === 'sandbox')
    await app.register(sandboxPartner, { webhookSecret, selfOrigin: () => selfOrigin(app) });

  // Commissions older than SETTLEMENT_DELAY_HOURS move to available; 0 disables the job (tests run it by hand).
  if (config.settlementIntervalMs > 0) {
    let stopJob: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      stopJob = startSettlementJob(db, ledgerKey, {
        delayHours: config.settlementDelayHours,
        intervalMs: config.settlementIntervalMs,
        log: app.log,
      });
    });
    app.addHook('onClose', async () => stopJob?.());
  }
  return app;
}
