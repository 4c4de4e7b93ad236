// Runs embedded PGlite off the server's main thread (a long query there would freeze the event loop)
// and exposes it as a PostgreSQL server on a Unix socket, so the server uses the same `pg` driver
// for both engines. Plain JavaScript so the worker needs no TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { dataDir, socketPath } = workerData;
let db;
let server;
try {
  db = await PGlite.create(dataDir === 'memory://' ? undefined : dataDir);
  // The server uses one pooled connection, but pg's pool drops a connection whenever a query on it fails and
  // opens a new one at once, before this side has noticed the old one close: with room for a single
  // connection that new one was refused, and the next request failed too (one bad query broke another
  // person's request). The queue behind these connections runs one statement at a time and keeps a
  // transaction's statements together, so accepting a few connections changes nothing else.
  server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 8 });
  await server.start();
  parentPort.postMessage({ type: 'ready' });
} catch (error) {
  parentPort.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
}

parentPort.on('message', async (message) => {
  if (message?.type !== 'stop') return;
  try {
    await server?.stop();
    await db?.close();
  } finally {
    parentPort.postMessage({ type: 'stopped' });
  }
});
