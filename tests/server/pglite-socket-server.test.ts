// The embedded database as its clients see it (src/server/db/pglite-worker.mjs, @electric-sql/pglite-socket): PGlite
// is one session, served to one connection at a time. The server's pool has one connection; a client from outside
// (a command such as `npm run admin`, psql) connects to the database's socket directory, waits in line, and is
// served while the pool lends its connection, which waits in turn. Always on the embedded engine (an in-memory
// database of its own), whichever engine the rest of the suite runs on; the outside clients are pg clients, and a
// raw socket speaking the protocol where a batch must be cut where pg never cuts it.
import net from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/open';
import { RunnerLocks, runnerLockHeld } from '../../src/server/db/runner-lock';

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
  const state = { settled: false };
  const done = promise.then((value) => {
    state.settled = true;
    return value;
  });
  return { state, done };
}

/** A client from outside the server, on the database's socket directory, connecting as it is made. */
function outsideClient() {
  const client = new pg.Client({
    host: database.socketDir,
    port: 5432,
    user: 'postgres',
    database: 'postgres',
  });
  client.on('error', () => {});
  return { client, connected: track(client.connect()) };
}

const count = async (n: number) =>
  Number((await database.pool.query('select count(*) from probe_rows where n = $1', [n])).rows[0].count);

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

/** An outside connection speaking the protocol by hand, to send a batch without its Sync. */
async function rawConnection() {
  const socket = net.connect(path.join(String(database.socketDir), '.s.PGSQL.5432'));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let buffer = Buffer.alloc(0);
  let wake: (() => void) | undefined;
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    wake?.();
  });
  /** Message types up to and including the first of `type`. */
  const until = async (type: string) => {
    const seen: string[] = [];
    for (;;) {
      while (buffer.length >= 5 && buffer.length >= 1 + buffer.readInt32BE(1)) {
        const size = 1 + buffer.readInt32BE(1);
        const got = String.fromCharCode(buffer[0]);
        buffer = buffer.subarray(size);
        seen.push(got);
        if (got === type) return seen;
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
const parse = (text: string) => message('P', cstring(''), cstring(text), int16(0));
const bind = () => message('B', cstring(''), cstring(''), int16(0), int16(0), int16(0));
const execute = () => message('E', cstring(''), int32(0));
const flush = () => message('H');

describe('one connection at a time on the embedded database', () => {
  it('makes an outside client wait while the pool is inside a transaction, and shows it none of it', async () => {
    const holder = await database.pool.connect();
    const outside = outsideClient();
    try {
      await holder.query('begin');
      await holder.query('insert into probe_rows values (1)');
      // The holder's own statements still run: the outside client waits behind them, not in front.
      for (let i = 0; i < 3; i++) await holder.query('select 1');
      expect(outside.connected.state.settled).toBe(false);
      await holder.query('rollback');
    } finally {
      holder.release();
    }
    await outside.connected.done;
    expect(
      (await outside.client.query('select count(*)::int as n from probe_rows where n = 1')).rows,
    ).toEqual([{ n: 0 }]);
    await outside.client.end();
  });

  it("makes the server's pool wait while an outside client is served, then runs its queries", async () => {
    const outside = outsideClient();
    await outside.connected.done;
    await outside.client.query('begin');
    await outside.client.query('insert into probe_rows values (2)');
    const read = track(count(2));
    for (let i = 0; i < 3; i++) await outside.client.query('select 1');
    expect(read.state.settled).toBe(false);
    await outside.client.query('commit');
    // Outside any transaction too: the client keeps the session until it closes.
    await outside.client.query('select 1');
    expect(read.state.settled).toBe(false);
    await outside.client.end();
    expect(await read.done).toBe(1);
  });

  it('serves outside clients one after the other, in the order they came', async () => {
    const first = outsideClient();
    await first.connected.done;
    const second = outsideClient();
    await first.client.query('insert into probe_rows values (3)');
    expect(second.connected.state.settled).toBe(false);
    await first.client.end();
    await second.connected.done;
    expect((await second.client.query('select count(*)::int as n from probe_rows where n = 3')).rows).toEqual(
      [{ n: 1 }],
    );
    await second.client.end();
  });

  it('rolls back the transaction of an outside client that closes inside it, and the pool goes on', async () => {
    const outside = outsideClient();
    await outside.connected.done;
    await outside.client.query('begin');
    await outside.client.query('insert into probe_rows values (4)');
    // Gone without a word, as a killed command's socket goes.
    (outside.client as unknown as { connection: { stream: net.Socket } }).connection.stream.destroy();
    expect(await count(4)).toBe(0);
    await database.pool.query('insert into probe_rows values (4)');
    expect(await count(4)).toBe(1);
  });

  it('does not commit what an outside connection executed before closing without its Sync', async () => {
    const raw = await rawConnection();
    raw.send(parse('insert into probe_rows values (5)'), bind(), execute(), flush());
    expect(await raw.until('C')).toEqual(['1', '2', 'C']);
    raw.socket.destroy();
    expect(await count(5)).toBe(0);
  });

  it('ends a failed batch of an outside connection that closes before its Sync, and the pool goes on', async () => {
    // Outside a transaction block and inside one: PostgreSQL ignores every message after the failure until a
    // Sync, so unless the batch is ended the next connection's statements would never be answered.
    for (const block of [false, true]) {
      const raw = await rawConnection();
      if (block) {
        raw.send(message('Q', cstring('begin')));
        await raw.until('Z');
      }
      raw.send(parse('select 1/0'), bind(), execute(), flush());
      expect((await raw.until('E')).at(-1)).toBe('E');
      raw.socket.destroy();
      await database.pool.query('insert into probe_rows values (6)');
    }
    expect(await count(6)).toBe(2);
  });

  it("gives each connection a session without the one before's prepared statements", async () => {
    // The same name for another text on each side: each connection prepares its names once, as pg does.
    await database.pool.query({ name: 'probe_statement', text: 'select 1 as one' });
    const outside = outsideClient();
    await outside.connected.done;
    expect((await outside.client.query({ name: 'probe_statement', text: 'select 2 as two' })).rows).toEqual([
      { two: 2 },
    ]);
    await outside.client.end();
    expect((await database.pool.query({ name: 'probe_statement', text: 'select 1 as one' })).rows).toEqual([
      { one: 1 },
    ]);
  });

  it('answers the next query after a failed one (pg replaces the connection a query failed on)', async () => {
    for (let i = 0; i < 10; i++) {
      await expect(database.pool.query('select 1/0')).rejects.toThrow('division by zero');
      expect((await database.pool.query('select $1::int as i', [i])).rows).toEqual([{ i }]);
    }
  });

  it("keeps the server's runner locks through an outside client and a failed query", async () => {
    // The session's advisory locks are the settlement job's and the imports' runner locks: every server reads them
    // from pg_locks to tell a running job from a stopped one, so clearing a connection's session must keep them.
    const runners = new RunnerLocks({ db: database.db, log: { info: () => {}, warn: () => {} } });
    const held = async () =>
      (await database.db.execute<{ held: boolean }>(sql`select ${runnerLockHeld(7, sql`42`)} as held`))
        .rows[0]?.held;
    const lock = await runners.tryTake([7, 42]);
    expect(lock).not.toBeNull();
    try {
      await expect(database.pool.query('select 1/0')).rejects.toThrow('division by zero');
      const outside = outsideClient();
      await outside.connected.done;
      await outside.client.query({ name: 'probe_statement', text: 'select 1' });
      await outside.client.end();
      expect(await held()).toBe(true);
    } finally {
      await lock?.release();
      await runners.close();
    }
    expect(await held()).toBe(false);
  });
});
