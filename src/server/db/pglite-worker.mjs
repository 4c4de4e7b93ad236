// Runs embedded PGlite off the server's main thread (a long query there would freeze the event loop)
// and exposes it as a PostgreSQL server on a Unix socket, so the server uses the same `pg` driver
// for both engines. Plain JavaScript so the worker needs no TypeScript loader.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { servePGlite } from './pglite-socket-server.mjs';

const { dataDir, cluster, socketPath, maxConnections } = workerData;
let db;
let server;
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
  server = await servePGlite(db, { path: socketPath, maxConnections });
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
