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

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  db: Db;
  pool: pg.Pool;
  /** The read replica (DATABASE_REPLICA_URL), when one is configured: a pool of its own, never migrated. */
  replica?: { db: Db; pool: pg.Pool };
  engine: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const MIGRATIONS_DIR = path.join(here, 'migrations');

// Unix socket paths are limited to ~107 bytes; fall back to a private temp dir when DATA_DIR is deep.
function socketDirFor(dataDir: string | null): { dir: string; temporary: boolean } {
  if (dataDir && path.join(dataDir, '.s.PGSQL.5432').length < 100) return { dir: dataDir, temporary: false };
  return { dir: fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-pg-')), temporary: true };
}

/**
 * The pool's connections to the embedded database. PGlite runs one batch at a time whatever the count; with one
 * connection it sat idle between statements (a fifth of the time at concurrency 10) while the main thread read
 * an answer and sent the next, with several the next is already queued in the worker (pglite-socket-server.mjs
 * keeps them apart).
 */
const EMBEDDED_CONNECTIONS = 4;

let embeddedConnections = 0;

/**
 * A connection to the embedded database. PGlite serves every connection from one session, so a prepared
 * statement's name carries its connection's tag: two connections preparing the same statement never meet there
 * (the socket server deallocates a closed connection's statements, pglite-socket-server.mjs).
 */
class EmbeddedClient extends pg.Client {
  // The process id too: a command on the server's socket (npm run admin) shares that one session with the server.
  readonly #tag = `p${process.pid.toString(36)}c${(embeddedConnections++).toString(36)}_`;

  constructor(config?: pg.ClientConfig) {
    super(config);
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((config: unknown, ...rest: unknown[]) => {
      const named = config as { name?: unknown; submit?: unknown } | null;
      const tagged =
        named &&
        typeof named === 'object' &&
        typeof named.name === 'string' &&
        typeof named.submit !== 'function'
          ? { ...named, name: `${this.#tag}${named.name}` }
          : config;
      return query(tagged, ...rest);
    }) as typeof this.query;
  }
}

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

/** Starts PGlite in a worker thread behind a Unix socket; resolves once it accepts connections. */
async function startEmbedded(dataDir: string | null, cluster: string | undefined) {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const dbDir = dataDir ? embeddedDir(dataDir) : 'memory://';
  const socket = socketDirFor(dataDir);
  const socketPath = path.join(socket.dir, '.s.PGSQL.5432');
  fs.rmSync(socketPath, { force: true }); // a stale socket from a killed run would block listen()
  const worker = new Worker(path.join(here, 'pglite-worker.mjs'), {
    // pg drops a connection whenever a query on it fails and opens a new one at once, before the socket server
    // has seen the old one close: room for those beside the pool's own.
    workerData: { dataDir: dbDir, cluster, socketPath, maxConnections: 2 * EMBEDDED_CONNECTIONS },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (msg: { type: string; message?: string }) =>
      msg.type === 'ready'
        ? resolve()
        : reject(new Error(`Embedded database failed to start: ${msg.message}`)),
    );
  });
  if (dataDir) fs.writeFileSync(path.join(dataDir, SOCKET_DIR_FILE), socket.dir, { mode: 0o600 });
  const stop = async () => {
    if (dataDir) fs.rmSync(path.join(dataDir, SOCKET_DIR_FILE), { force: true });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5000);
      worker.once('message', () => {
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
 * `cluster`, for `memory://` only: a file holding a fresh cluster as PGlite's dumpDataDir wrote it, loaded instead of
 * creating one. Creating one runs initdb, 5.5 s of CPU; loading takes 1 s. The server suite opens a database per
 * test file and loads the cluster its global setup dumped once (tests/server/global-setup.ts).
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
    const embedded = await startEmbedded(inMemory ? null : opts.dataDir, inMemory ? opts.cluster : undefined);
    stopEmbedded = embedded.stop;
    pool = newPool({
      // The socket's name carries the port: named here, so a PGPORT in the environment (meant for a PostgreSQL
      // server) cannot send the driver to another socket.
      host: embedded.socketDir,
      port: 5432,
      user: 'postgres',
      database: 'postgres',
      max: EMBEDDED_CONNECTIONS,
      Client: EmbeddedClient,
    });
  }
  const db = drizzle(pool, { schema });
  try {
    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
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
    async close() {
      await replicaPool?.end();
      await pool.end();
      await stopEmbedded?.();
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
  const pool = new pg.Pool({
    host: socketDir,
    port: 5432,
    user: 'postgres',
    database: 'postgres',
    max: 1,
    Client: EmbeddedClient,
  });
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
