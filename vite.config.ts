import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// One config for the panel build (vite) and both unit-test projects (vitest).
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist/web', emptyOutDir: true, chunkSizeWarningLimit: 4000 },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
