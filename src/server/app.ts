import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/open';
import { registerErrorHandling } from './http/errors';
import { registerSessionGuard } from './http/session';
import { registerXsrf } from './http/xsrf';
import accountRoutes from './modules/account/routes';
import catalogRoutes from './modules/catalog/routes';
import locationRoutes from './modules/locations/routes';
import reportRoutes from './modules/reports/routes';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
  }
}

export interface AppDeps {
  config: Config;
  db: Db;
  /** Pino options; tests pass false. */
  logger?: boolean | object;
}

/** Builds the Fastify app: plugins, then the app's own guards, then the /api/v1 route folders. */
export async function buildApp({ config, db, logger }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? {
      level: config.logLevel,
      redact: ['req.headers["x-auth-token"]', 'req.headers.cookie'],
    },
    bodyLimit: 1024 * 1024,
    trustProxy: false,
  });
  app.decorate('db', db);
  app.decorate('config', config);

  await app.register(cookie);
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
    },
    { prefix: '/api/v1' },
  );
  return app;
}
