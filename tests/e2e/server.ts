import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer, COMPILED_SERVER } from '../compiled-server';
import { freePort } from '../free-port';

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
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-e2e-'));
  const child: ChildProcess = spawn(COMPILED_SERVER[0], COMPILED_SERVER.slice(1), {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DATA: '1',
      LOG_LEVEL: 'warn',
      // Every test signs in from this one address, far more often than a person would: the per-address limit
      // (password spraying) has its own server test (tests/server/throttle.test.ts).
      SIGN_INS_PER_ADDRESS: '10000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
    // Each piece of output as it arrives (after the listeners above added it): the server says when it runs.
    const started = () => {
      if (!output.includes('Tierdesk is running')) return;
      child.stdout?.off('data', started);
      child.stderr?.off('data', started);
      clearTimeout(timer);
      resolve();
    };
    child.stdout?.on('data', started);
    child.stderr?.on('data', started);
  });
  // A server that dies while the suite runs says why: every later test would only see a refused connection.
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping)
      console.error(`The e2e server stopped (${signal ?? code}); its last output:\n${output.slice(-4000)}`);
  });
  return {
    baseURL: `http://127.0.0.1:${port}`,
    async stop() {
      stopping = true;
      // Wait for the server to close its database before removing its files (not a guessed delay).
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
        child.kill('SIGTERM');
        await exited;
        clearTimeout(kill);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
