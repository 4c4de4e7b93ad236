import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer, COMPILED_SERVER } from '../compiled-server';
import { startServer as startServerProcess } from '../spawn-server';

export interface RunningServer {
  baseURL: string;
  /** Stops the server (waiting for it to close its database) and removes its DATA_DIR. */
  stop: () => Promise<void>;
}

/**
 * Starts Tierdesk the way `npm start` does (the built panel, the compiled server, the embedded database with demo
 * data) on a free port with a fresh DATA_DIR, and resolves once it says it is running. `env` adds to or replaces the
 * defaults. The suite's shared server (global-setup.ts) and a file that needs one of its own (mfa.e2e.ts) start it
 * here. The panel must already be built (scripts/test-all.mjs runs `vite build`).
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!fs.existsSync('dist/web/index.html'))
    throw new Error('dist/web is missing: run `npm run build` first');
  // The compiled server, as `npm start` runs it: built here when its sources changed, so the suite tests what ships.
  buildServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-e2e-'));
  const server = await startServerProcess(
    {
      DATA_DIR: dataDir,
      // Every test signs in from this one address, far more often than a person would: the per-address limit
      // (password spraying) has its own server test (tests/server/throttle.test.ts).
      SIGN_INS_PER_ADDRESS: '10000',
      ...env,
    },
    [],
    COMPILED_SERVER,
  );
  // A server that dies while the suite runs says why: every later test would only see a refused connection.
  let stopping = false;
  void server.exited.then((code) => {
    if (!stopping)
      console.error(
        `The e2e server stopped (${code ?? server.child.signalCode}); its last output:\n${server.output().slice(-4000)}`,
      );
  });
  return {
    baseURL: server.origin,
    async stop() {
      stopping = true;
      // The server closes its database before its files are removed.
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
