import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text asset of the build, at the highest levels, so the
 * server sends them compressed without compressing per request (@fastify/static's preCompressed).
 */
function precompress(): Plugin {
  let outDir = 'dist/web';
  return {
    name: 'tierdesk-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After the service worker is written (vite-plugin-pwa writes it when the bundle closes), so it is
    // compressed too.
    closeBundle: {
      sequential: true,
      order: 'post',
      handler() {
        compressAll(outDir);
      },
    },
  };
}

function compressAll(outDir: string) {
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(dir, e.name);
      return e.isDirectory() ? walk(full) : [full];
    });
  for (const file of walk(outDir)) {
    if (!/\.(js|css|html|svg|json|webmanifest|txt|map)$/.test(file)) continue;
    const body = fs.readFileSync(file);
    if (body.length < 1024) continue;
    fs.writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    );
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
  }
}

/**
 * zod, its configuration (zodConfig.ts, first in the chunk as main.tsx imports it first, so no schema is built
 * before it), the shared schemas and the validators built on them (the sign-in form's loads it on the first key).
 */
const VALIDATION =
  /node_modules[\\/]zod[\\/]|src[\\/]shared[\\/]schemas[\\/]|src[\\/]web[\\/](zodConfig|signin[\\/]validator|forms[\\/]schemaValidator)/;
/**
 * Modules only the onboarding form, the Hindi catalogue, a second step's set-up (its QR code), the service worker's
 * registration (workbox-window, which virtual:pwa-register imports) or the dashboard's charts (MUI X Charts and what
 * only it uses) use: they stay out of the screens chunk.
 */
const LAZY_OF_THEIR_OWN =
  /pages[\\/]onboarding|pages[\\/]security[\\/]QrCode|pages[\\/]charts[\\/]|i18n[\\/](hi|raLanguageHindi)\.|node_modules[\\/](react-dropzone|file-selector|attr-accept|qrcode|dijkstrajs|workbox-window|bezier-easing|use-sync-external-store|@base-ui[\\/]utils|d3-[a-z-]+|flatqueue|internmap|@mui[\\/]x-(charts|charts-vendor|internals|internal-gestures))[\\/]/;

/** The light theme's primary colour (the app bar's) and background (src/web/layout/theme.ts). */
const THEME_COLOR = '#1f4e8c';
const BACKGROUND_COLOR = '#f5f7fa';

/**
 * Paths the server answers itself, never the panel: the API, its health check and the sandbox partner's pages
 * (src/server/app.ts), in any spelling (the server's routes are case-insensitive and ignore repeated slashes).
 */
const SERVER_PAGES = /^\/+(api|sandbox)(\/|$)|^\/+healthz\/?$/i;

/**
 * The installable panel (docs/operations.md, "Installing the panel / offline"): the web app manifest (its link is
 * written into the built index.html) and a Workbox service worker, sw.js (generateSW), which src/web/serviceWorker.ts
 * registers through virtual:pwa-register once the page has loaded.
 * - It precaches index.html and every built script and stylesheet (and the manifest, which vite-plugin-pwa adds).
 *   The hashed files carry no revision, so the install fetches them as the browser's cache has them: on a first
 *   visit, what the page loaded is not downloaded again.
 * - Every panel page is the precached index.html (navigateFallback), online or not; a new build reaches the page
 *   through a new worker. The server's own paths (SERVER_PAGES) go to the server.
 * - Nothing else is kept: /api/... answers, the icons and the favicons go to the network as without a worker.
 * - registerType 'prompt': a new build's worker waits until the person chooses to reload (layout/UpdatePrompt), so
 *   it never reloads a half-filled form. clientsClaim: a first install takes the open page at once, so a later
 *   update's reload works there too.
 */
const pwa = VitePWA({
  registerType: 'prompt',
  injectRegister: false,
  includeManifestIcons: false,
  manifest: {
    id: '/',
    name: 'Tierdesk',
    short_name: 'Tierdesk',
    description: 'Back-office for digital banking agent networks',
    lang: 'en',
    start_url: '/home',
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    globPatterns: ['index.html', 'assets/*.{js,css}'],
    navigateFallback: 'index.html',
    navigateFallbackDenylist: [SERVER_PAGES],
    inlineWorkboxRuntime: true,
    clientsClaim: true,
  },
});

/** Server test files that ignore DATABASE_URL: each makes its own embedded database or needs none. */
const SAME_ON_EVERY_ENGINE = [
  'tests/server/footprint.test.ts',
  'tests/server/embedded-backup.test.ts',
  'tests/server/data-dir.test.ts',
  'tests/server/reconcile-cli.test.ts',
  'tests/server/command-lines.test.ts',
  'tests/server/layering.test.ts',
  'tests/server/money.test.ts',
  'tests/server/readme.test.ts',
];

// One config for the panel build (vite) and both unit-test projects (vitest).
export default defineConfig({
  plugins: [react(), pwa, precompress()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 4000,
    rolldownOptions: {
      output: {
        // Few chunks, so the helpers they share land once: `index`, the sign-in entry index.html loads
        // (src/web/entry.ts: the login form without React, a few KB); `validation` (zod and the shared schemas,
        // the login form's validator among them);
        // then the panel (React, react-admin, MUI, the layout, the dashboard and every resource) in one lazy
        // chunk, which the entry starts loading at once. The onboarding form and the Hindi catalogue fall to the
        // automatic chunking (chunks of their own).
        codeSplitting: {
          groups: [
            { name: 'index', tags: ['$initial'], priority: 3 },
            { name: 'validation', test: VALIDATION, priority: 2 },
            { name: 'screens', test: (id) => !LAZY_OF_THEIR_OWN.test(id), priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  test: {
    // Vitest runs one file at a time on two cores (cores - 1). A server file spends much of its time waiting on its
    // database's thread or on a timeout it tests, a web file on renders: two at once take the server suite from
    // 4m05 to 3m19 and the web suite from 4m08 to 2m38, both cores busy. The browser suite stays one at a time.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          // Run on PostgreSQL clusters of their own whatever the engine: the 'replica' project, once. The pass on
          // PostgreSQL (DATABASE_URL set) also leaves out the files that test the same thing whatever DATABASE_URL
          // says (the embedded engine, a DATA_DIR, command lines, plain functions): the embedded pass has run them.
          exclude: [
            ...configDefaults.exclude,
            'tests/server/replica.test.ts',
            'tests/server/failover.test.ts',
            ...(process.env.DATABASE_URL ? SAME_ON_EVERY_ENGINE : []),
          ],
          globalSetup: ['tests/server/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          // The read replica's test and the failover's: each starts a PostgreSQL 15 primary and a streaming
          // replica of its own (scripts/pg-cluster.sh), so they need no DATABASE_URL and run once, not on each
          // engine's pass.
          name: 'replica',
          environment: 'node',
          include: ['tests/server/replica.test.ts', 'tests/server/failover.test.ts'],
          testTimeout: 90_000,
          hookTimeout: 300_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          // npm run fleet:test (scripts/fleet-test.sh): a fleet of its own (scripts/fleet.sh: PostgreSQL 15 nodes kept
          // by Patroni and etcd, three servers, HAProxy), its tests in order on one fleet. Not part of `npm test`; CI
          // runs its quick mode on its own. The start, the storm and each loss of the leader carry their own limits
          // (tests/fleet/fleet.test.ts), and the storm ends early rather than pass the run's bound.
          name: 'fleet',
          environment: 'node',
          include: ['tests/fleet/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          // The restore drill (tests/backups/restore-drill.test.ts): a PostgreSQL 15 primary and replica archiving to
          // pgBackRest (scripts/pg-cluster.sh with BACKREST_DIR), one server, the fleet's backup and restore commands.
          // Not part of `npm test`; CI runs it on its own (.ci/run). Each command carries its own limit.
          name: 'restore-drill',
          environment: 'node',
          include: ['tests/backups/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 600_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          globals: true,
          include: ['tests/web/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/web/setup.ts'],
          // A whole form filled on a loaded 2-core machine takes 20 s and more (6 s idle); each findBy/waitFor
          // has its own 10 s limit (tests/web/setup.ts), so a stuck check still fails on its own message.
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.e2e.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 90_000,
          // expect.poll's 1 s default is too short for a loaded machine; the same limit as Playwright's waits
          // (WAIT_MS in tests/e2e/browser.ts).
          expect: { poll: { timeout: 30_000 } },
        },
      },
    ],
  },
});
