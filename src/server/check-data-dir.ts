// `npm start` runs this first (prestart), so a second start on a DATA_DIR in use stops before it rebuilds
// the panel the running server is serving. main.ts takes the lock itself; this only looks.
import { readConfig } from './config';
import { assertDataDirFree, DataDirInUseError } from './data-dir-lock';

try {
  assertDataDirFree(readConfig().dataDir);
} catch (error) {
  if (!(error instanceof DataDirInUseError)) throw error;
  console.error(`${error.message}. Stop that server first, or start this one with another DATA_DIR.`);
  process.exit(1);
}
