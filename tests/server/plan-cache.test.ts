// Statements planned once per connection (src/server/db/plan-cache.ts), seen where PostgreSQL shows them: the
// connection's own pg_prepared_statements. Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_ONCE } from '../../src/server/db/plan-cache';
import { makeTestContext, type TestContext } from './helpers';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await makeTestContext({ demo: true });
});

afterAll(async () => {
  await ctx?.close();
});

const NEWEST = `select ${PLAN_ONCE} id from users where type = $1 order by created_at desc, id desc limit 10`;
const SEARCH = 'select id from users where search like $1 order by created_at desc, id desc limit 10';
const prepared = async (client: { query: (text: string) => Promise<{ rows: unknown[] }> }) =>
  (await client.query('select statement from pg_prepared_statements order by statement')).rows.map(
    (r) => (r as { statement: string }).statement,
  );

describe('statements planned once per connection', () => {
  it('prepares a statement marked plan-once once, and answers as the unprepared statement does', async () => {
    const client = await ctx.database.pool.connect();
    try {
      const plain = await client.query(NEWEST.replace(PLAN_ONCE, ''), [4]);
      expect(plain.rows.length).toBeGreaterThan(0);
      // Past the first five runs PostgreSQL answers from the plan it keeps: the rows must not change.
      for (let run = 0; run < 8; run++) {
        const kept = await client.query({ text: NEWEST, values: [4] });
        expect(kept.rows).toEqual(plain.rows);
      }
      const other = await client.query({ text: NEWEST, values: [3] });
      expect(other.rows.map((r) => r.id)).not.toEqual(plain.rows.map((r) => r.id));
      expect((await prepared(client)).filter((s) => s === NEWEST)).toHaveLength(1);
    } finally {
      client.release();
    }
  });

  it('leaves an unmarked statement (a search) unprepared: it is planned with its values every time', async () => {
    const client = await ctx.database.pool.connect();
    try {
      for (let run = 0; run < 3; run++) await client.query({ text: SEARCH, values: ['%a%'] });
      expect(await prepared(client)).not.toContain(SEARCH);
    } finally {
      client.release();
    }
  });

  it('drops what a dropped connection prepared: its successor prepares the same statement afresh', async () => {
    const first = await ctx.database.pool.connect();
    await first.query({ text: NEWEST, values: [4] });
    expect(await prepared(first)).toContain(NEWEST);
    // The pool ends a connection released with an error, as it does after a failed query.
    first.release(new Error('dropped'));
    const next = await ctx.database.pool.connect();
    try {
      expect(next).not.toBe(first);
      // On the embedded database every connection shares one session: the dropped connection's statement must
      // neither collide with the new one's nor stay behind in the session (the socket server deallocates it once
      // it has seen the connection close).
      const again = await next.query({ text: NEWEST, values: [4] });
      expect(again.rows.length).toBeGreaterThan(0);
      await expect.poll(() => prepared(next)).toEqual([NEWEST]);
    } finally {
      next.release();
    }
  });
});
