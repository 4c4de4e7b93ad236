// The two database engines of the benchmarks, each fresh: the embedded PGlite in a new DATA_DIR, or a
// throw-away database on a PostgreSQL server (DATABASE_URL, or a PostgreSQL 15 started by scripts/pg-throwaway.sh).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../src/server/db/open';

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
  const name = `tierdesk_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  return {
    database,
    async close() {
      await database.close();
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
      stopServer();
    },
  };
}
