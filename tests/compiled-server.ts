import { spawnSync } from 'node:child_process';

/** The compiled server, as `npm start` runs it once its build is fresh (scripts/build-server.mjs). */
export const COMPILED_SERVER = [process.execPath, 'dist/server/main.js'];

/** `npm start`'s first step: compiles the server to dist/ when its sources changed since the last build. */
export function buildServer() {
  const result = spawnSync(process.execPath, ['scripts/build-server.mjs'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`The server build failed:\n${result.stdout}${result.stderr}`);
}
