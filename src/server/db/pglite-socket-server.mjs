// The embedded database as a PostgreSQL server on a Unix socket, so the server speaks to PGlite through the same
// `pg` driver as to PostgreSQL, over several connections. PGlite is one session and runs one message batch at a
// time; the queue below makes several connections safe on it, so the next statement is already waiting when
// one ends (with one connection the engine sat idle a fifth of the time at concurrency 10, waiting for the main
// thread to read an answer and send the next statement). In place of @electric-sql/pglite-socket, which hands
// PGlite one protocol message per call and only keeps a transaction's connection together, not an
// extended-protocol batch (Parse..Sync), so two connections there could interleave their unnamed statements.
// Plain JavaScript so the worker needs no TypeScript loader.
import net from 'node:net';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
const TERMINATE = 0x58; // 'X'
const PARSE = 0x50; // 'P'
const CLOSE = 0x43; // 'C'
const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I', ReadyForQuery's status outside a transaction block

/**
 * Follows what PGlite sends one connection, message by message across chunks: the connection holds the session
 * until its last message so far is ReadyForQuery with status idle. Until then it is inside a transaction block
 * ('T', 'E'), an extended-protocol batch not yet synced (its unnamed statement and portal live in the session),
 * or a COPY; another connection's work would land inside it.
 */
class AnswerTracker {
  idle = true;
  #header = Buffer.alloc(5);
  #headerBytes = 0;
  #bodyLeft = 0;
  #type = 0;

  feed(bytes) {
    let at = 0;
    while (at < bytes.length) {
      if (this.#bodyLeft > 0) {
        // ReadyForQuery's body is its one status byte.
        if (this.#type === READY_FOR_QUERY) this.idle = bytes[at] === IDLE;
        const taken = Math.min(this.#bodyLeft, bytes.length - at);
        this.#bodyLeft -= taken;
        at += taken;
        continue;
      }
      const taken = Math.min(5 - this.#headerBytes, bytes.length - at);
      bytes.copy(this.#header, this.#headerBytes, at, at + taken);
      this.#headerBytes += taken;
      at += taken;
      if (this.#headerBytes < 5) break;
      this.#headerBytes = 0;
      this.#type = this.#header[0];
      this.#bodyLeft = this.#header.readInt32BE(1) - 4;
      this.idle = false;
    }
  }
}

/**
 * PGlite is one session: one batch of messages at a time. Work runs in arrival order, except that while a
 * connection holds the session (see AnswerTracker) only its own work runs; the others wait for it to let go.
 */
class SessionQueue {
  #db;
  #jobs = [];
  #running = false;
  /** The connection holding the session, if any. */
  #owner = null;

  constructor(db) {
    this.#db = db;
  }

  run(connection, work) {
    return new Promise((resolve, reject) => {
      this.#jobs.push({ connection, work, resolve, reject });
      void this.#drain();
    });
  }

  /**
   * A closed connection: drops its waiting work, then (in its turn) ends whatever it left open in the session
   * and deallocates the statements it prepared (names are per connection: they would pile up in the session).
   */
  closed(connection) {
    this.#jobs = this.#jobs.filter((job) => {
      if (job.connection !== connection) return true;
      job.reject(new Error('connection closed'));
      return false;
    });
    return this.run(connection, async () => {
      const messages = [];
      if (this.#owner === connection) {
        // A transaction block, or an extended-protocol batch cut off before its Sync (whose implicit
        // transaction a Sync would commit): the first ROLLBACK aborts either; when the batch had failed,
        // PostgreSQL ignores everything up to a Sync, so the Sync ends that and the second ROLLBACK the block.
        messages.push(simpleQuery('ROLLBACK'), SYNC_MESSAGE, simpleQuery('ROLLBACK'));
      }
      for (const name of connection.statements)
        messages.push(simpleQuery(`DEALLOCATE "${name.replaceAll('"', '""')}"`));
      try {
        // Its answers go nowhere. (Not execProtocolRaw: it writes to the last stream's callback, another
        // connection's socket.)
        if (messages.length > 0)
          await this.#db.runExclusive(() =>
            this.#db.execProtocolRawStream(new Uint8Array(Buffer.concat(messages)), { onRawData: () => {} }),
          );
      } finally {
        connection.answer.idle = true;
      }
    });
  }

  async #drain() {
    if (this.#running) return;
    this.#running = true;
    try {
      for (;;) {
        const at = this.#owner ? this.#jobs.findIndex((job) => job.connection === this.#owner) : 0;
        if (at < 0 || at >= this.#jobs.length) break;
        const [job] = this.#jobs.splice(at, 1);
        try {
          job.resolve(await job.work());
        } catch (error) {
          job.reject(error);
        }
        // The session's own state too: a clean-up that failed before its ROLLBACK must not hand a live
        // transaction to another connection.
        this.#owner = job.connection.answer.idle && !this.#db.isInTransaction() ? null : job.connection;
      }
    } finally {
      this.#running = false;
    }
  }
}

const SYNC_MESSAGE = Buffer.from([0x53, 0, 0, 0, 4]);

function simpleQuery(text) {
  const body = Buffer.from(`${text}\0`, 'utf8');
  const header = Buffer.alloc(5);
  header[0] = 0x51; // 'Q'
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

/** The names of the statements a batch of complete messages prepares (Parse) and closes (Close 'S'). */
function noteStatements(statements, bytes) {
  for (let at = 0; at + 5 <= bytes.length; at += 1 + bytes.readInt32BE(at + 1)) {
    if (bytes[at] === PARSE) {
      const name = bytes.toString('utf8', at + 5, bytes.indexOf(0, at + 5));
      if (name) statements.add(name);
    } else if (bytes[at] === CLOSE && bytes[at + 5] === 0x53) {
      statements.delete(bytes.toString('utf8', at + 6, bytes.indexOf(0, at + 6)));
    }
  }
}

/**
 * The next thing a connection's bytes hold, or undefined until more arrive: the SSL and cancel requests and the
 * startup message (untyped, each alone), a Terminate, or every complete typed message up to the first incomplete
 * one or a Terminate.
 */
function nextUnit(buffer) {
  if (buffer.length >= 8) {
    const length = buffer.readInt32BE(0);
    const code = buffer.readInt32BE(4);
    if (code === SSL_REQUEST && length === 8) return { kind: 'ssl', size: 8 };
    if (code === CANCEL_REQUEST && length === 16)
      return buffer.length >= 16 ? { kind: 'cancel', size: 16 } : undefined;
    if (code === PROTOCOL_3) return buffer.length >= length ? { kind: 'startup', size: length } : undefined;
  }
  if (buffer.length >= 1 && buffer[0] === TERMINATE)
    return { kind: 'terminate', size: Math.min(5, buffer.length) };
  let size = 0;
  while (size + 5 <= buffer.length && buffer[size] !== TERMINATE) {
    const length = 1 + buffer.readInt32BE(size + 1);
    if (size + length > buffer.length) break;
    size += length;
  }
  return size > 0 ? { kind: 'messages', size } : undefined;
}

/** Serves `db` on the Unix socket at `path`, at most `maxConnections` at once. */
export async function servePGlite(db, { path, maxConnections }) {
  const queue = new SessionQueue(db);
  const sockets = new Set();

  const serve = (socket) => {
    sockets.add(socket);
    const connection = { answer: new AnswerTracker(), statements: new Set() };
    let buffer = Buffer.alloc(0);
    let pumping = false;
    let open = true;
    const send = (bytes) =>
      queue.run(connection, () =>
        // PGlite's own lock (its exec and query take it too).
        db.runExclusive(() =>
          db.execProtocolRawStream(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), {
            // A view into PGlite's memory, reused by the next call: copied before it is queued for the socket.
            onRawData: (answer) => {
              if (answer.length === 0) return;
              const copy = Buffer.from(answer);
              connection.answer.feed(copy);
              if (open) socket.write(copy);
            },
          }),
        ),
      );
    const pump = async () => {
      pumping = true;
      try {
        for (let unit = nextUnit(buffer); open && unit; unit = nextUnit(buffer)) {
          const bytes = buffer.subarray(0, unit.size);
          buffer = buffer.subarray(unit.size);
          if (unit.kind === 'ssl') socket.write('N');
          else if (unit.kind === 'cancel' || unit.kind === 'terminate') socket.end();
          else {
            if (unit.kind === 'messages') noteStatements(connection.statements, bytes);
            await send(bytes);
          }
        }
      } catch {
        socket.destroy();
      } finally {
        pumping = false;
      }
    };
    socket.setNoDelay(true);
    socket.on('data', (chunk) => {
      buffer = buffer.length > 0 ? Buffer.concat([buffer, chunk]) : chunk;
      if (!pumping) void pump();
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      open = false;
      sockets.delete(socket);
      queue.closed(connection).catch(() => {});
    });
  };

  const server = net.createServer(serve);
  server.maxConnections = maxConnections;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  return {
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
