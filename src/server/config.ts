import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL server; unset = embedded PGlite in dataDir. `memory://` = embedded, in memory (tests). */
  databaseUrl?: string;
  adminUsername: string;
  adminPassword: string;
  demoData: boolean;
  initialPassword: string;
  sessionTtlHours: number;
  /** Built panel to serve; absent in API-only tests. */
  webDir?: string;
  logLevel: string;
  /** Behind a reverse proxy: trust X-Forwarded-For so per-address limits see the real client. */
  trustProxy: boolean;
  /** DATA_KEY as given; main.ts falls back to a key file in dataDir (see security/personal-data.ts). */
  dataKeyEnv?: string;
}

export const DEFAULTS = {
  adminUsername: '9999999999',
  adminPassword: 'Admin@1234',
  initialPassword: 'Welcome@123',
} as const;

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    adminUsername: env.ADMIN_USERNAME ?? DEFAULTS.adminUsername,
    adminPassword: env.ADMIN_PASSWORD ?? DEFAULTS.adminPassword,
    demoData: (env.DEMO_DATA ?? '1') === '1',
    initialPassword: env.INITIAL_PASSWORD ?? DEFAULTS.initialPassword,
    sessionTtlHours: Number(env.SESSION_TTL_HOURS ?? 12),
    webDir: path.resolve(env.WEB_DIR ?? 'dist/web'),
    logLevel: env.LOG_LEVEL ?? 'info',
    dataKeyEnv: env.DATA_KEY || undefined,
    trustProxy: env.TRUST_PROXY === '1',
  };
}
