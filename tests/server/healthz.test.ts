import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestContext, type TestContext } from './helpers';

// `GET /healthz`: what a load balancer (HAProxy's check) asks each server, at the root, without a session.

let ctx: TestContext;
const logLines: string[] = [];

beforeAll(async () => {
  ctx = await makeTestContext({
    demo: false,
    logger: { level: 'info', stream: { write: (line: string) => logLines.push(line) } },
  });
});
afterAll(() => ctx.close());

const healthz = async () => {
  const res = await ctx.app.inject({ method: 'GET', url: '/healthz' });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
};

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok"} while the database answers, with no session, and logs nothing at info', async () => {
    logLines.length = 0;
    const res = await healthz();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(logLines.filter((line) => line.includes('/healthz'))).toEqual([]);
    // The API's requests are still logged: the quiet is the check's own.
    await ctx.app.inject({ method: 'GET', url: '/api/v1/state/fetch' });
    expect(logLines.some((line) => line.includes('/api/v1/state/fetch'))).toBe(true);
  });

  it('answers 503 {"status":"unavailable"} when the database does not answer in time, and 200 once it does', async () => {
    // Every connection of the pool held: the check's `select 1` waits for one and is given up on.
    const pool = ctx.database.pool;
    const held: pg.PoolClient[] = [];
    for (let i = 0; i < (pool.options.max ?? 10); i++) held.push(await pool.connect());
    try {
      const res = await healthz();
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'unavailable' });
    } finally {
      for (const client of held) client.release();
    }
    const res = await healthz();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers 503 {"status":"unavailable"} once the database is gone', async () => {
    await ctx.database.close();
    ctx.database.close = async () => {};
    const res = await healthz();
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable' });
  });
});
