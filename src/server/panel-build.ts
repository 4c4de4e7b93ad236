import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sourcesHash, stampMatches } from './sources-hash.mjs';

/** What the built panel is made from: a change to any of these calls for a new build. */
export const PANEL_SOURCES = [
  'index.html',
  'public',
  'vite.config.ts',
  'tsconfig.json',
  'package-lock.json',
  'src/web',
  'src/shared',
];
/** Where the hash of the sources of the last build is kept (outside the served directory). */
export const PANEL_STAMP = path.join('dist', '.panel-sources');

/** One hash over the names and contents of every panel source under `root`. */
export const panelSourcesHash = (root: string, sources: readonly string[] = PANEL_SOURCES): string =>
  sourcesHash(root, sources);

/**
 * `npm start`: builds the panel only when its sources changed since the last build (or it was never built), so
 * a second start costs about what starting the server alone does. Returns whether it built.
 */
export function ensurePanelBuilt(root: string, log: (line: string) => void = console.log): boolean {
  const hash = panelSourcesHash(root);
  const built = fs.existsSync(path.join(root, 'dist', 'web', 'index.html'));
  if (built && stampMatches(root, PANEL_STAMP, hash)) return false;
  log('Building the panel (its sources changed since the last build)...');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-20).join('\n');
    throw new Error(`The panel build failed${output ? `:\n${output}` : ''}`);
  }
  fs.writeFileSync(path.join(root, PANEL_STAMP), `${hash}\n`);
  return true;
}
