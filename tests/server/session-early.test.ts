// A read-only route starts its work on the user its token had last time while the session is read again
// (http/session.ts): whatever the look-up then finds, the answer is the one a look-up made first would give.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashToken } from '../../src/server/http/session-token';
import {
  ADMIN,
  call,
  DEMO_PASSWORD,
  INITIAL_PASSWORD,
  login,
  makeTestContext,
  saveBodyOf,
  type TestContext,
} from './helpers';
import { idsByMobile } from './selling';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const RETAILER = '9300000001';
const NEW_EMPLOYEE = '9000000002'; // still on the initial password

const refusalsRecorded = async (adminToken: string) =>
  (await call(ctx.app, 'GET', 'audit/fetch', { token: adminToken, query: { action: 'access.denied' } })).body
    .result.totalCounts as number;

describe('a read-only route whose session ended since the last call', () => {
  it('answers the session’s refusal, not its role’s, and records no 403', async () => {
    const admin = await login(ctx.app, ADMIN.userName, ADMIN.password);
    const { token } = await login(ctx.app, RETAILER, DEMO_PASSWORD);
    // A retailer may not list transactions: refused by its role, before the route's work.
    const refused = await call(ctx.app, 'GET', 'transactions/fetch', { token });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You do not have permission to do this');
    const before = await refusalsRecorded(admin.token);
    expect((await call(ctx.app, 'POST', 'account/logout', { token })).status).toBe(200);
    const after = await call(ctx.app, 'GET', 'transactions/fetch', { token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: 'Invalid session token' });
    expect(await refusalsRecorded(admin.token)).toBe(before);
  });

  it('answers the session’s refusal, not the query’s', async () => {
    const { token } = await login(ctx.app, RETAILER, DEMO_PASSWORD);
    const bad = await call(ctx.app, 'GET', 'account/fetch', { token, query: { type: '9' } });
    expect(bad.status).toBe(400);
    await ctx.database.db.execute(sql`update sessions set expires_at = now() - interval '1 second'
      where token_hash = ${hashToken(token)}`);
    const after = await call(ctx.app, 'GET', 'account/fetch', { token, query: { type: '9' } });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: 'Your session has expired. Please log in again.' });
  });

  it('does not answer before the look-up: a session deleted while the call waits for it is refused', async () => {
    const { token } = await login(ctx.app, RETAILER, DEMO_PASSWORD);
    expect((await call(ctx.app, 'GET', 'account/fetch', { token, query: { type: '1' } })).status).toBe(200);
    const holder = await ctx.database.pool.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table sessions in access exclusive mode');
      const pending = call(ctx.app, 'GET', 'account/fetch', { token, query: { type: '1' } });
      // On PostgreSQL the look-up now waits for the lock (on its own, or riding in the list's statement, which
      // then waits with it); the embedded engine runs one transaction at a time, so there everything waits.
      if (process.env.DATABASE_URL)
        await vi.waitFor(
          async () => {
            // A lock on sessions that some statement waits for (its text can be too long for the activity view
            // to show where it reads sessions).
            const { rows } = await holder.query(
              `select 1 from pg_locks l join pg_class c on c.oid = l.relation where not l.granted and c.relname = 'sessions'`,
            );
            expect(rows.length).toBeGreaterThan(0);
          },
          { timeout: 10_000, interval: 20 },
        );
      await holder.query('delete from sessions where token_hash = $1', [hashToken(token)]);
      await holder.query('commit');
      const res = await pending;
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Invalid session token' });
    } finally {
      holder.release();
    }
  });

  it('locks a deactivated user out of a list at once', async () => {
    const { token, user } = await login(ctx.app, '9300000004', DEMO_PASSWORD);
    expect((await call(ctx.app, 'GET', 'bought_products/fetch', { token })).status).toBe(200);
    await ctx.database.db.execute(sql`update users set status = 'INACTIVE' where id = ${user._id}`);
    const res = await call(ctx.app, 'GET', 'bought_products/fetch', { token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Your account is inactive. Please contact your administrator.' });
    await ctx.database.db.execute(sql`update users set status = 'ACTIVE' where id = ${user._id}`);
  });
});

describe('a read-only route whose user changed since the last call', () => {
  it('answers on the user as it is now: a list right after the initial password is changed', async () => {
    const { token, user } = await login(ctx.app, NEW_EMPLOYEE, INITIAL_PASSWORD);
    const gated = await call(ctx.app, 'GET', 'account/fetch', { token, query: { type: '4' } });
    expect(gated.status).toBe(403);
    expect(gated.body.message).toBe('Password change required');
    const self = await call(ctx.app, 'GET', 'account/fetch', { token, query: { _id: user._id } });
    expect(self.body.result.users[0].passwordUpdatedAt).toBeNull();
    const changed = await call(ctx.app, 'POST', 'account/resetPassword', {
      token,
      body: { oldPassword: INITIAL_PASSWORD, newPassword: 'Strong@123', confirmPassword: 'Strong@123' },
    });
    expect(changed.status).toBe(200);
    // The user this token had last time had no password set: the route is run again on the user as read now.
    const list = await call(ctx.app, 'GET', 'account/fetch', { token, query: { type: '4' } });
    expect(list.status).toBe(200);
    expect(list.body.result.users.length).toBeGreaterThan(0);
    const again = await call(ctx.app, 'GET', 'account/fetch', { token, query: { _id: user._id } });
    expect(again.body.result.users[0].passwordUpdatedAt).not.toBeNull();
  });

  it('answers a moved distributor on its new place in the network', async () => {
    const admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
    const ids = await idsByMobile(ctx.app, admin);
    const { token } = await login(ctx.app, '9200000001', DEMO_PASSWORD);
    // One of its retailers, found by its place in the network (the path under the distributor's own).
    const query = { _id: ids[RETAILER] };
    const before = await call(ctx.app, 'GET', 'account/fetch', { token, query });
    expect(before.status).toBe(200);
    const moved = await call(ctx.app, 'POST', `account/update/${ids['9200000001']}`, {
      token: admin,
      body: {
        ...(await saveBodyOf(ctx.app, admin, ids['9200000001'])),
        distributor: { masterDistributorId: ids['9100000002'] },
      },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    // The token's user was last read before the move: on that path the retailer's new one is not below it.
    const after = await call(ctx.app, 'GET', 'account/fetch', { token, query });
    expect(after.status).toBe(200);
    expect(after.body.result.users[0]).toMatchObject({
      _id: ids[RETAILER],
      retailer: { masterDistributorId: ids['9100000002'] },
    });
  });
});
