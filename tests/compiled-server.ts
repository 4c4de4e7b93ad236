import { spawnSync } from 'node:child_process';

/** The server's commands: `npm start` (main) and `npm run <script>`, each src/server/<script>.ts. */
export type ServerScript = 'main' | 'admin' | 'reconcile' | 'backup' | 'restore';

/** One of the server's commands compiled, as `npm start` and `npm run <script>` run it. */
export const compiledScript = (script: ServerScript) => `dist/server/${script}.js`;

/** The compiled server, as `npm start` runs it once its build is fresh (scripts/build-server.mjs). */
export const COMPILED_SERVER = [process.execPath, compiledScript('main')];

/** `npm start`'s first step: compiles the server to dist/ when its sources changed since the last build. */
export function buildServer() {
  const result = spawnSync(process.execPath, ['scripts/build-server.mjs'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`The server build failed:\n${result.stdout}${result.stderr}`);
}
