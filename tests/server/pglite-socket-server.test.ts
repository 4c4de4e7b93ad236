// The embedded database's socket server (src/server/db/pglite-socket-server.mjs): several connections on PGlite's
// one session. Each connection may hold the session (a transaction block, an extended-protocol batch before its
// Sync) and the others wait; what a closed connection leaves behind is undone. Always on the embedded engine (an
// in-memory database of its own), whichever engine the rest of the suite runs on; the connections are the
// server's own pool and a raw socket speaking the protocol, so a batch can be cut where pg never cuts it.
import net from 'node:net';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/open';

let database: Database;

beforeAll(async () => {
  database = await openDatabase({ databaseUrl: 'memory://', dataDir: '', cluster: inject('pgliteCluster') });
  await database.pool.query('create table probe_rows (n int)');
});

afterAll(async () => {
  await database?.close();
});

/** A promise's state, observed without waiting for it. */
function track<T>(promise: Promise<T>) {
  const state = { settled: false, value: undefined as T | undefined };
  const done = promise.then((value) => {
    state.settled = true;
    state.value = value;
    return value;
  });
  return { state, done };
}

const message = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
};
const cstring = (text: string) => Buffer.from(`${text}\0`);
const int16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const parse = (text: string) => message('P', cstring(''), cstring(text), int16(0));
const bind = (values: string[]) =>
  message(
    'B',
    cstring(''),
    cstring(''),
    int16(0),
    int16(values.length),
    ...values.flatMap((v) => [int32(Buffer.byteLength(v)), Buffer.from(v)]),
    int16(0),
  );
const describePortal = () => message('D', Buffer.from('P'), cstring(''));
const execute = () => message('E', cstring(''), int32(0));
const flush = () => message('H');
const sync = () => message('S');

/** A connection speaking the protocol by hand, to send a batch in pieces. */
async function rawConnection() {
  const socketPath = path.join(
    String((database.pool as unknown as { options: pg.PoolConfig }).options.host),
    '.s.PGSQL.5432',
  );
  const socket = net.connect(socketPath);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let buffer = Buffer.alloc(0);
  let wake: (() => void) | undefined;
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    wake?.();
  });
  /** Messages up to and including the first of `type`. */
  const until = async (type: string) => {
    const seen: { type: string; body: Buffer }[] = [];
    for (;;) {
      while (buffer.length >= 5 && buffer.length >= 1 + buffer.readInt32BE(1)) {
        const size = 1 + buffer.readInt32BE(1);
        const got = { type: String.fromCharCode(buffer[0]), body: buffer.subarray(5, size) };
        buffer = buffer.subarray(size);
        seen.push(got);
        if (got.type === type) return seen;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
  const startup = Buffer.concat([
    int32(196608),
    cstring('user'),
    cstring('postgres'),
    cstring('database'),
    cstring('postgres'),
    Buffer.from([0]),
  ]);
  socket.write(Buffer.concat([int32(4 + startup.length), startup]));
  await until('Z');
  return { socket, until, send: (...messages: Buffer[]) => socket.write(Buffer.concat(messages)) };
}

/** The first column of the DataRows among `messages`, as text. */
const firstColumns = (messages: { type: string; body: Buffer }[]) =>
  messages.filter((m) => m.type === 'D').map((m) => m.body.subarray(6, 6 + m.body.readInt32BE(2)).toString());

const count = async (n: number) =>
  Number((await database.pool.query('select count(*) from probe_rows where n = $1', [n])).rows[0].count);

describe('several connections on the embedded database', () => {
  it('makes another connection wait while one is inside a transaction block, and shows it none of it', async () => {
    const holder = await database.pool.connect();
    const other = await database.pool.connect();
    try {
      await holder.query('begin');
      await holder.query('insert into probe_rows values (1)');
      const read = track(other.query('select count(*)::int as n from probe_rows where n = 1'));
      // The holder's own statements still run: the other waits behind them, not in front.
      for (let i = 0; i < 3; i++) await holder.query('select 1');
      expect(read.state.settled).toBe(false);
      await holder.query('rollback');
      // Inside the holder's transaction it would have counted the uncommitted row.
      expect((await read.done).rows[0].n).toBe(0);
    } finally {
      holder.release();
      other.release();
    }
  });

  it('keeps an extended-protocol batch whole until its Sync: no other statement lands between its messages', async () => {
    const raw = await rawConnection();
    const other = await database.pool.connect();
    try {
      // The unnamed statement and portal live in the session until the Sync.
      raw.send(parse('select $1::int + 1'), bind(['41']), describePortal(), flush());
      await raw.until('T');
      // pg sends its own unnamed Parse/Bind/Execute/Sync for a query with values.
      const read = track(other.query('select $1::text as v', ['other']));
      raw.send(describePortal(), flush());
      await raw.until('T');
      expect(read.state.settled).toBe(false);
      raw.send(execute(), sync());
      expect(firstColumns(await raw.until('Z'))).toEqual(['42']);
      expect((await read.done).rows).toEqual([{ v: 'other' }]);
    } finally {
      other.release();
      raw.socket.destroy();
    }
  });

  it('rolls back the transaction of a connection that closes inside it, and lets the others go on', async () => {
    const holder = await database.pool.connect();
    await holder.query('begin');
    await holder.query('insert into probe_rows values (2)');
    // Gone without a word, as a killed client's socket goes.
    (holder as unknown as { connection: { stream: net.Socket } }).connection.stream.destroy();
    holder.release(new Error('gone'));
    expect(await count(2)).toBe(0);
    await database.pool.query('insert into probe_rows values (2)');
    expect(await count(2)).toBe(1);
  });

  it('does not commit what a connection executed before closing without its Sync', async () => {
    const raw = await rawConnection();
    raw.send(parse('insert into probe_rows values (3)'), bind([]), execute(), flush());
    expect((await raw.until('C')).map((m) => m.type)).toEqual(['1', '2', 'C']);
    raw.socket.destroy();
    // A Sync would have committed it; the socket server aborts it instead.
    expect(await count(3)).toBe(0);
  });

  it('ends a failed batch of a connection that closes before its Sync, and the next one runs', async () => {
    const raw = await rawConnection();
    raw.send(parse('select 1/0'), bind([]), execute(), flush());
    expect((await raw.until('E')).at(-1)?.type).toBe('E');
    raw.socket.destroy();
    // PostgreSQL ignores everything after a failed message up to a Sync: unless the socket server ends it, the
    // next connection's statements would vanish.
    await database.pool.query('insert into probe_rows values (4)');
    expect(await count(4)).toBe(1);
  });

  it("deallocates a closed connection's prepared statements and leaves the others'", async () => {
    const leaving = await database.pool.connect();
    const staying = await database.pool.connect();
    // The pool tags each statement's name with its process and connection (db/open.ts): the session's names,
    // untagged.
    const names = async () =>
      (
        await staying.query<{ name: string }>('select name from pg_prepared_statements order by name')
      ).rows.map((r) => r.name.replace(/^p[0-9a-z]+c[0-9a-z]+_/, ''));
    try {
      await leaving.query({ name: 'leaving_statement', text: 'select 1 as one' });
      await leaving.query({ name: 'leaving "quoted" statement', text: 'select 3 as three' });
      await staying.query({ name: 'staying_statement', text: 'select 2 as two' });
      // Two connections prepare a statement of the same name in the one session without meeting.
      await leaving.query({ name: 'staying_statement', text: 'select 2 as two' });
      expect(await names()).toEqual(
        expect.arrayContaining(['leaving "quoted" statement', 'leaving_statement', 'staying_statement']),
      );
      leaving.release(new Error('dropped'));
      await expect.poll(names).not.toContain('leaving_statement');
      await expect.poll(names).not.toContain('leaving "quoted" statement');
      expect(await names()).toContain('staying_statement');
      expect((await staying.query({ name: 'staying_statement', text: 'select 2 as two' })).rows).toEqual([
        { two: 2 },
      ]);
    } finally {
      staying.release();
    }
  });
});
