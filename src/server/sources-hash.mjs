// One hash over the names and contents of a build's sources: `npm start` rebuilds the panel (panel-build.ts) and the
// server (scripts/build-server.mjs) only when theirs changed. Plain JavaScript so the server's own build can read it
// before any TypeScript is compiled.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

function files(entry) {
  if (!fs.existsSync(entry)) return [];
  if (!fs.statSync(entry).isDirectory()) return [entry];
  return fs
    .readdirSync(entry, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((child) => files(path.join(entry, child.name)));
}

/** The hash of every file under each of `sources` (paths relative to `root`). */
export function sourcesHash(root, sources) {
  const hash = createHash('sha256');
  for (const source of sources)
    for (const file of files(path.join(root, source))) {
      hash.update(path.relative(root, file));
      hash.update('\0');
      hash.update(fs.readFileSync(file));
      hash.update('\0');
    }
  return hash.digest('hex');
}

/** Whether the build stamped in `stamp` (a file under `root`) was made from sources hashing to `hash`. */
export const stampMatches = (root, stamp, hash) => {
  const file = path.join(root, stamp);
  return fs.existsSync(file) && fs.readFileSync(file, 'utf8').trim() === hash;
};
