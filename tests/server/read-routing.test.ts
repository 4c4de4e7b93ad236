// A single server (no DATABASE_REPLICA_URL), on either engine: the read replica's routing is not there at all.
// The replica itself is tested on a PostgreSQL primary and replica of its own (replica.test.ts).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig, SetupError } from '../../src/server/config';
import { call, DEMO_PASSWORD, login, makeTestContext, recordStatements, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext();
});
afterAll(async () => ctx.close());

describe('a server without a read replica', () => {
  it('records no WAL position after a write, and asks for none when it reads a list', async () => {
    expect(ctx.app.readRouter).toBeNull();
    const employee = await login(ctx.app, '9000000001', DEMO_PASSWORD);
    const statements: string[] = [];
    const stop = recordStatements(ctx.database.pool, ({ text }) => statements.push(text));
    try {
      const created = await call(ctx.app, 'POST', 'state/create', {
        token: employee.token,
        body: { name: 'Single Server State' },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const listed = await call(ctx.app, 'GET', 'state/fetch', {
        token: employee.token,
        query: { sort: 'createdAt', order: 'DESC', limit: '5' },
      });
      expect(listed.status).toBe(200);
      expect(listed.body.result.state[0].name).toBe('Single Server State');
    } finally {
      stop();
    }
    expect(statements.filter((text) => /wal_lsn|pg_current_wal/.test(text))).toEqual([]);
    const rows = await ctx.database.db.execute(
      sql`select count(*)::int as n from sessions where wal_lsn is not null`,
    );
    expect(rows.rows[0]).toEqual({ n: 0 });
  });
});

describe('the replica settings', () => {
  it('refuse DATABASE_REPLICA_URL without DATABASE_URL, in one line', () => {
    const refusal = () => readConfig({ DATABASE_REPLICA_URL: 'postgres://replica.example/tierdesk' });
    expect(refusal).toThrow(SetupError);
    expect(refusal).toThrow(
      'DATABASE_REPLICA_URL needs DATABASE_URL: a replica copies a PostgreSQL server, and the embedded database has none',
    );
  });

  it('take a postgres URL and a lag limit above 0 (30 s by default)', () => {
    const both = { DATABASE_URL: 'postgres://primary.example/tierdesk' };
    expect(readConfig(both).databaseReplicaUrl).toBeUndefined();
    expect(readConfig(both).replicaMaxLagSeconds).toBe(30);
    const set = readConfig({
      ...both,
      DATABASE_REPLICA_URL: 'postgres://replica.example/tierdesk',
      REPLICA_MAX_LAG_SECONDS: '5',
    });
    expect(set.databaseReplicaUrl).toBe('postgres://replica.example/tierdesk');
    expect(set.replicaMaxLagSeconds).toBe(5);
    expect(() => readConfig({ ...both, DATABASE_REPLICA_URL: 'replica.example:5432' })).toThrow(
      'DATABASE_REPLICA_URL must be a postgres:// or postgresql:// URL',
    );
    expect(() => readConfig({ REPLICA_MAX_LAG_SECONDS: '0' })).toThrow(
      'REPLICA_MAX_LAG_SECONDS must be a number above 0, got "0"',
    );
  });
});
