// Runs embedded PGlite off the server's main thread (a long query there would freeze the event loop) and serves it
// as a PostgreSQL server with @electric-sql/pglite-socket, so the server uses the same `pg` driver for both
// engines. Plain JavaScript so the worker needs no TypeScript loader.
//
// PGlite is one session. pglite-socket serves every connection it accepts at once, handing PGlite one protocol
// message at a time, so two connections' extended-protocol batches (Parse..Sync, whose unnamed statement lives in
// the session) would interleave. Only one connection is ever served at a time:
// - the server's own pool holds one connection, on a socket in a private directory (`poolSocketPath`);
// - anyone else (a command such as `npm run admin`, psql) connects to `socketPath`, waits in line there, and is
//   served while the server's pool lends its connection (the main thread holds it idle, db/open.ts).
// `npm run backup` is handed a copy of the database on a socket of its own beside it (`backupSocketPath`).
import fs from 'node:fs';
import net from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { dataDir, cluster, poolSocketPath, socketPath, backupSocketPath } = workerData;

/**
 * Connections pglite-socket accepts: the pool's one and the outside one it lends to, with room for those closing.
 * pg drops a connection whenever a query on it fails and opens the next at once, before pglite-socket has seen
 * the first close; a closing connection sends nothing more (its Terminate).
 */
const MAX_CONNECTIONS = 8;

/**
 * What DISCARD ALL clears but the session's advisory locks: the server's runner locks live in this one session
 * (runner-lock.ts) and must outlive an outside connection. Kept equal to db/open.ts's CLEAR_SESSION.
 */
const CLEAR_SESSION = `CLOSE ALL; RESET ALL; DEALLOCATE ALL; UNLISTEN *; DISCARD PLANS; DISCARD TEMP;
  DISCARD SEQUENCES`;

/** The main thread's answers to `lend`, in order. */
const lent = [];
parentPort.on('message', (message) => {
  if (message?.type === 'lent') lent.shift()?.();
});

/** Asks the main thread for the pool's connection; resolves once it holds it idle. */
const borrow = () =>
  new Promise((resolve) => {
    lent.push(resolve);
    parentPort.postMessage({ type: 'lend' });
  });

/**
 * Outside connections, one at a time in arrival order: each is piped to pglite-socket while the pool's connection
 * is lent, and handed back when it closes.
 */
function outsideLine(db, socketServer) {
  const waiting = [];
  const open = new Set();
  let serving = false;

  async function serveNext() {
    if (serving) return;
    const client = waiting.shift();
    if (!client) return;
    serving = true;
    await borrow();
    const served = !client.destroyed;
    if (served) {
      // A session without the pool's prepared statements: the client prepares its names as it pleases.
      await db.exec(CLEAR_SESSION).catch(() => {});
      await new Promise((resolve) => {
        const inner = net.connect(poolSocketPath);
        const end = () => {
          client.destroy();
          inner.destroy();
        };
        inner.once('close', () => {
          client.destroy();
          resolve();
        });
        inner.on('error', end);
        client.on('error', end);
        // What it sent before closing reaches pglite-socket first.
        client.once('close', () => inner.end());
        inner.setNoDelay(true);
        client.setNoDelay(true);
        client.pipe(inner);
        inner.pipe(client);
        client.resume();
      });
      // pglite-socket rolls back a transaction block a closed connection left open, but not an extended-protocol
      // batch cut before its Sync, nor a failed one whose Sync never came: PostgreSQL then ignores every message
      // until a Sync, and the next connection would wait forever. Once pglite-socket has let the connection go
      // (the pool's lent one is left), ROLLBACK aborts such a batch, a Sync ends the ignoring (PGlite's query ends
      // with one) and ROLLBACK ends a failed transaction block.
      for (let turn = 0; turn < 1000 && socketServer.getStats().activeConnections > 1; turn++)
        await new Promise((resolve) => setImmediate(resolve));
      await db.exec('ROLLBACK').catch(() => {});
      await db.query('SELECT 1').catch(() => {});
      await db.exec('ROLLBACK').catch(() => {});
    }
    // Its prepared statements are the pool's next connection's to clear (db/open.ts), so the lent connection is
    // dropped rather than reused once it has served someone.
    parentPort.postMessage({ type: 'return', served });
    serving = false;
    void serveNext();
  }

  const line = net.createServer({ pauseOnConnect: true }, (client) => {
    open.add(client);
    client.once('close', () => {
      open.delete(client);
      const at = waiting.indexOf(client);
      if (at >= 0) waiting.splice(at, 1);
    });
    waiting.push(client);
    void serveNext();
  });
  return {
    listen: () =>
      new Promise((resolve, reject) => {
        line.once('error', reject);
        line.listen(socketPath, resolve);
      }),
    close: () =>
      new Promise((resolve) => {
        for (const client of open) client.destroy();
        line.close(() => resolve());
      }),
  };
}

/**
 * The copy `npm run backup` asks for (backup.ts): PGlite's own dumpDataDir, a tarball of the database's files taken
 * while PGlite's query lock is held, so no statement is half-way through any of them. It is the database at one
 * moment, as a crash would leave it: every transaction committed before it is in it, and one still open is rolled
 * back when the copy is started (PostgreSQL's crash recovery, from the copied WAL). Every request waits for the
 * copy, so it is taken uncompressed (the command compresses it) and the wait is reported (`heldMs`, from the request
 * to the copy, waiting for the statement running then included). The answer: one JSON line, `{ bytes, heldMs }` or
 * `{ error }`, then the tarball.
 */
function backupLine(db) {
  const line = net.createServer((client) => {
    client.on('error', () => {});
    const asked = performance.now();
    db.dumpDataDir('none')
      .then(async (tarball) => {
        const heldMs = Math.round(performance.now() - asked);
        const bytes = new Uint8Array(await tarball.arrayBuffer());
        client.write(`${JSON.stringify({ bytes: bytes.byteLength, heldMs })}\n`);
        client.end(bytes);
      })
      .catch((error) => {
        client.end(`${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`);
      });
  });
  return {
    listen: () =>
      new Promise((resolve, reject) => {
        line.once('error', reject);
        line.listen(backupSocketPath, resolve);
      }),
    close: () => new Promise((resolve) => line.close(() => resolve())),
  };
}

let db;
let server;
let outside;
let backups;
try {
  // pg_trgm: substring search through a trigram index; btree_gin: the user's type in that index (the migrations
  // create both extensions).
  // cluster: an in-memory database's starting files, dumped once (openDatabase in open.ts), instead of initdb.
  // shared_buffers: PGlite zero-fills its shared memory as it starts, so all of it is resident from the first
  // second (a PostgreSQL server's is touched as it is used). A read it misses comes from the data files in the
  // operating system's cache at little cost, so 32 MB instead of initdb's 128 MB (docs/performance.md, Start and
  // memory).
  db = await PGlite.create(dataDir === 'memory://' ? undefined : dataDir, {
    extensions: { pg_trgm, btree_gin },
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
    ...(cluster ? { loadDataDir: new Blob([fs.readFileSync(cluster)]) } : {}),
  });
  server = new PGLiteSocketServer({ db, path: poolSocketPath, maxConnections: MAX_CONNECTIONS });
  await server.start();
  outside = outsideLine(db, server);
  await outside.listen();
  backups = backupLine(db);
  await backups.listen();
  parentPort.postMessage({ type: 'ready' });
} catch (error) {
  parentPort.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
}

parentPort.on('message', async (message) => {
  if (message?.type !== 'stop') return;
  try {
    await outside?.close();
    await backups?.close();
    await server?.stop();
    await db?.close();
  } finally {
    parentPort.postMessage({ type: 'stopped' });
  }
});
