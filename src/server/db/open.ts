import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { SetupError } from '../config';
import { watchConnections } from './errors';
import * as schema from './schema';

/** The database: drizzle over a pool (`$client`, drizzle's own handle on it). */
export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };

export interface Database {
  db: Db;
  pool: pg.Pool;
  /** The read replica (DATABASE_REPLICA_URL), when one is configured: a pool of its own, never migrated. */
  replica?: { db: Db; pool: pg.Pool };
  engine: 'pglite' | 'postgres';
  /**
   * The embedded database's socket directory for other clients (`psql -h`, a command on a running server's
   * DATA_DIR): they are served one at a time, each while the pool lends its connection (pglite-worker.mjs).
   */
  socketDir?: string;
  close(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const MIGRATIONS_DIR = path.join(here, 'migrations');

const SOCKET_NAME = '.s.PGSQL.5432';

/**
 * The socket, beside the database's, where the running server hands `npm run backup` a copy of its database
 * (pglite-worker.mjs, backup.ts). Short, so it fits where the database's socket does.
 */
export const BACKUP_SOCKET_NAME = '.s.backup';

// Unix socket paths are limited to ~107 bytes; fall back to a private temp dir when DATA_DIR is deep.
function socketDirFor(dataDir: string | null): { dir: string; temporary: boolean } {
  if (dataDir && path.join(dataDir, SOCKET_NAME).length < 100) return { dir: dataDir, temporary: false };
  return { dir: fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-pg-')), temporary: true };
}

/**
 * What DISCARD ALL clears but the session's advisory locks, which are the server's runner locks (runner-lock.ts) and
 * must outlive the connection that took them. Kept equal to pglite-worker.mjs's CLEAR_SESSION.
 */
const CLEAR_SESSION = `CLOSE ALL; RESET ALL; DEALLOCATE ALL; UNLISTEN *; DISCARD PLANS; DISCARD TEMP;
  DISCARD SEQUENCES`;

/**
 * Where each connection to the embedded database starts: PGlite is one session, which its connections take in
 * turn, so each first clears what the one before left there (above all its prepared statements: pg prepares a
 * name once per connection, and the session would hold it already).
 */
const clearSession = async (client: pg.ClientBase) => {
  await client.query(CLEAR_SESSION);
};

/** A pool's options for the embedded database's socket in `dir`: one connection, the session cleared first. */
const embeddedPoolConfig = (dir: string): pg.PoolConfig => ({
  // The socket's name carries the port: named here, so a PGPORT in the environment (meant for a PostgreSQL
  // server) cannot send the driver to another socket.
  host: dir,
  port: 5432,
  user: 'postgres',
  database: 'postgres',
  // One session, one connection ("pool of 1"): a transaction's statements and the next request's never meet.
  max: 1,
  onConnect: clearSession,
});

/** Where the embedded database keeps its files in DATA_DIR. */
const embeddedDir = (dataDir: string) => path.join(dataDir, 'pgdata');

/**
 * A file in DATA_DIR naming the directory of the running server's database socket (DATA_DIR itself, or a private
 * temporary directory when DATA_DIR's path is too long for a socket): a command such as `npm run admin` finds the
 * embedded database there while the server holds it.
 */
export const SOCKET_DIR_FILE = 'server.socket-dir';

/** Whether DATA_DIR holds an embedded database already (a server has run on it). */
export const hasEmbeddedDatabase = (dataDir: string) => fs.existsSync(embeddedDir(dataDir));

/** The refusal of a command that reads what a server wrote, pointed at a database Tierdesk never ran on. */
export const noTierdeskDatabase = (where: string) =>
  new SetupError(
    `${where} holds no Tierdesk database: set DATA_DIR to the server's data directory, or DATABASE_URL to its database`,
  );

/** DATABASE_URL as it may be printed: its server and database, never its user or password. */
const serverOf = (databaseUrl: string) => {
  try {
    const url = new URL(databaseUrl);
    return `${url.host || url.searchParams.get('host') || 'localhost'}${url.pathname}`;
  } catch {
    return 'not a URL';
  }
};

/** The pool's one connection, held idle while the embedded database serves an outside connection. */
function lenderOf(pool: pg.Pool) {
  let held: pg.PoolClient | undefined;
  return {
    /** Resolves once the pool's connection is held (or the pool is closed: then nothing uses it either). */
    async lend() {
      held = await pool.connect().catch(() => undefined);
    },
    /** Back to the pool; dropped when the outside connection was served, its next one then clears the session. */
    giveBack(served: boolean) {
      held?.release(served);
      held = undefined;
    },
  };
}

/**
 * Starts PGlite in a worker thread served by pglite-socket; resolves once it accepts connections: the pool's on
 * `poolSocketDir` (a private directory), everyone else's on `socketDir`, in line (pglite-worker.mjs).
 */
async function startEmbedded(
  dataDir: string | null,
  cluster: string | undefined,
  poolSocketDir: string,
  lender: ReturnType<typeof lenderOf>,
) {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const dbDir = dataDir ? embeddedDir(dataDir) : 'memory://';
  const socket = socketDirFor(dataDir);
  const socketPath = path.join(socket.dir, SOCKET_NAME);
  // Stale sockets from a killed run would block listen().
  fs.rmSync(socketPath, { force: true });
  fs.rmSync(path.join(socket.dir, BACKUP_SOCKET_NAME), { force: true });
  const worker = new Worker(path.join(here, 'pglite-worker.mjs'), {
    workerData: {
      dataDir: dbDir,
      cluster,
      poolSocketPath: path.join(poolSocketDir, SOCKET_NAME),
      socketPath,
      backupSocketPath: path.join(socket.dir, BACKUP_SOCKET_NAME),
    },
  });
  worker.on('message', (message: { type: string; served?: boolean }) => {
    if (message.type === 'lend') void lender.lend().then(() => worker.postMessage({ type: 'lent' }));
    else if (message.type === 'return') lender.giveBack(message.served === true);
  });
  await new Promise<void>((resolve, reject) => {
    const started = (message: { type: string; message?: string }) => {
      if (message.type === 'ready') resolve();
      else if (message.type === 'error')
        reject(new Error(`Embedded database failed to start: ${message.message}`));
      else return;
      worker.off('message', started);
    };
    worker.once('error', reject);
    worker.on('message', started);
  });
  if (dataDir) fs.writeFileSync(path.join(dataDir, SOCKET_DIR_FILE), socket.dir, { mode: 0o600 });
  const stop = async () => {
    if (dataDir) fs.rmSync(path.join(dataDir, SOCKET_DIR_FILE), { force: true });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5000);
      worker.on('message', (message: { type: string }) => {
        if (message.type !== 'stopped') return;
        clearTimeout(timer);
        resolve();
      });
      worker.postMessage({ type: 'stop' });
    });
    await worker.terminate();
    if (socket.temporary) fs.rmSync(socket.dir, { recursive: true, force: true });
  };
  return { socketDir: socket.dir, stop };
}

/**
 * Opens the database the configuration names: a PostgreSQL server when `databaseUrl` is a postgres URL,
 * otherwise embedded PGlite in `dataDir` (or in memory for `memory://`), and runs the migrations.
 *
 * `cluster`: a file holding a cluster as PGlite's dumpDataDir wrote it, loaded instead of creating one, for `memory://`
 * or a `dataDir` that holds no database yet. Creating one runs initdb, 5.5 s of CPU; loading takes 1 s. The server
 * suite opens a database per test file and loads the cluster its global setup dumped once
 * (tests/server/global-setup.ts); `npm run restore` loads a backup's (restore.ts).
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  cluster?: string;
  /**
   * Refuse (SetupError) a database Tierdesk has never run on, instead of creating its tables: for a command that
   * reads what a server wrote (reconcile), where a mistyped DATA_DIR or DATABASE_URL must not answer "all is well".
   */
  mustExist?: boolean;
  /** false: leave the tables as they are (`npm run backup` copies the database as the server left it). */
  migrate?: boolean;
  /**
   * A streaming replica of `databaseUrl`'s server, for reads (db/replica.ts). Opened without a connection: a
   * replica that is down when the server starts only sends the reads to the primary until it answers.
   */
  replicaUrl?: string;
}): Promise<Database> {
  const inMemory = opts.databaseUrl === 'memory://';
  const newPool = (config: pg.PoolConfig) => {
    const pool = new pg.Pool(config);
    pool.on('error', () => {}); // idle-client errors surface on the next query instead of crashing the process
    watchConnections(pool); // and a connection that ends while in use neither (db/errors.ts)
    return pool;
  };
  let pool: pg.Pool;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let socketDir: string | undefined;
  if (opts.databaseUrl && !inMemory) {
    pool = newPool({ connectionString: opts.databaseUrl, max: 10 });
    try {
      // Asked first, so an unreachable server is named as such rather than as the first migration that failed.
      const { rows } = await pool.query<{ migrated: boolean }>(
        `select to_regclass('drizzle.__drizzle_migrations') is not null as migrated`,
      );
      if (opts.mustExist && !rows[0]?.migrated)
        throw noTierdeskDatabase(`The database ${serverOf(opts.databaseUrl)}`);
    } catch (error) {
      await pool.end();
      if (error instanceof SetupError) throw error;
      throw new SetupError(
        `Cannot reach the PostgreSQL database of DATABASE_URL (${serverOf(opts.databaseUrl)}): ${(error as Error).message}`,
      );
    }
  } else {
    if (opts.mustExist && !inMemory && !hasEmbeddedDatabase(opts.dataDir))
      throw noTierdeskDatabase(opts.dataDir);
    const poolSocketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-pool-'));
    pool = newPool(embeddedPoolConfig(poolSocketDir));
    try {
      const embedded = await startEmbedded(
        inMemory ? null : opts.dataDir,
        opts.cluster,
        poolSocketDir,
        lenderOf(pool),
      );
      socketDir = embedded.socketDir;
      stopEmbedded = async () => {
        await embedded.stop();
        fs.rmSync(poolSocketDir, { recursive: true, force: true });
      };
    } catch (error) {
      fs.rmSync(poolSocketDir, { recursive: true, force: true });
      throw error;
    }
  }
  const db = drizzle(pool, { schema });
  try {
    if (opts.migrate !== false) await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  } catch (error) {
    await pool.end();
    await stopEmbedded?.();
    throw error;
  }
  // A replica that does not answer within a few seconds is skipped rather than waited for.
  const replicaPool =
    opts.replicaUrl && !stopEmbedded
      ? newPool({ connectionString: opts.replicaUrl, max: 10, connectionTimeoutMillis: 3000 })
      : undefined;
  return {
    db,
    pool,
    ...(replicaPool ? { replica: { db: drizzle(replicaPool, { schema }), pool: replicaPool } } : {}),
    engine: stopEmbedded ? 'pglite' : 'postgres',
    ...(socketDir ? { socketDir } : {}),
    async close() {
      await replicaPool?.end();
      // The embedded engine's stop closes outside connections first, so a connection the pool lent returns to it.
      await Promise.all([pool.end(), stopEmbedded?.()]);
    },
  };
}

/**
 * The embedded database of the server running on `dataDir`, through that server's socket (SOCKET_DIR_FILE): for a
 * command run while the server holds DATA_DIR (its lock), which must not open the database files itself. Nothing is
 * migrated: the server did that. One connection.
 */
export async function openRunningEmbedded(dataDir: string): Promise<Database> {
  let socketDir: string;
  try {
    socketDir = fs.readFileSync(path.join(dataDir, SOCKET_DIR_FILE), 'utf8').trim();
  } catch {
    throw new SetupError(
      `The server running on ${dataDir} has not opened its database yet: try again shortly`,
    );
  }
  // It waits in line there until the server lends it the session (pglite-worker.mjs).
  const pool = new pg.Pool(embeddedPoolConfig(socketDir));
  pool.on('error', () => {});
  try {
    const { rows } = await pool.query<{ migrated: boolean }>(
      `select to_regclass('drizzle.__drizzle_migrations') is not null as migrated`,
    );
    if (!rows[0]?.migrated) throw noTierdeskDatabase(dataDir);
  } catch (error) {
    await pool.end();
    if (error instanceof SetupError) throw error;
    throw new SetupError(
      `Cannot reach the database of the server running on ${dataDir}: ${(error as Error).message}`,
    );
  }
  return { db: drizzle(pool, { schema }), pool, engine: 'pglite', close: () => pool.end() };
}

/** A transaction handle; helpers that may run inside one accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Queryable = Db | Tx;
