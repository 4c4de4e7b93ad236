// The two database engines of the benchmarks, each fresh: the embedded PGlite in a new DATA_DIR, or a
// throw-away database on a PostgreSQL server (DATABASE_URL, or a PostgreSQL 15 started by scripts/pg-throwaway.sh).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/server/db/open';
import { throwAwayDatabase } from '../throwaway-database';

/** A database for one engine: a fresh DATA_DIR for PGlite, a throw-away database on a PostgreSQL server. */
export async function openEngine(engine: 'pglite' | 'postgres', opts: { pgPort?: string } = {}) {
  if (engine === 'pglite') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-bench-'));
    const database = await openDatabase({ dataDir });
    return {
      database,
      async close() {
        await database.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  let serverUrl = process.env.DATABASE_URL;
  let stopServer = () => {};
  if (!serverUrl) {
    const env = { ...process.env, PGDIR: '/tmp/tierdesk-bench-pg', PGPORT: opts.pgPort ?? '55471' };
    serverUrl = execFileSync('bash', ['scripts/pg-throwaway.sh', 'start'], { env, encoding: 'utf8' }).trim();
    stopServer = () => execFileSync('bash', ['scripts/pg-throwaway.sh', 'stop'], { env, stdio: 'ignore' });
  }
  const throwAway = await throwAwayDatabase(serverUrl, 'tierdesk_bench');
  const database = await openDatabase({ databaseUrl: throwAway.url, dataDir: '' });
  return {
    database,
    async close() {
      await database.close();
      await throwAway.drop();
      stopServer();
    },
  };
}
