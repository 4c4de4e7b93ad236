import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  call,
  DEMO_PASSWORD,
  INITIAL_PASSWORD,
  login,
  makeTestContext,
  type TestContext,
} from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const RETAILER = '9300000001';
const INACTIVE_RETAILER = '9300000008';
const CUSTOMER = '9400000001';
const NEW_EMPLOYEE = '9000000002'; // still on the initial password

describe('POST account/login', () => {
  it('signs in with the right password and returns an opaque token and the user', async () => {
    const res = await call(ctx.app, 'POST', 'account/login', { body: ADMIN });
    expect(res.status).toBe(200);
    expect(res.body.result.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(res.body.result.user).toMatchObject({
      type: 0,
      userName: { id: ADMIN.userName },
      status: 'ACTIVE',
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password_hash|passwordHash|argon2/);
  });

  it('accepts the user name case-insensitively and by mobile number', async () => {
    const res = await call(ctx.app, 'POST', 'account/login', {
      body: { userName: RETAILER, password: DEMO_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body.result.user.type).toBe(4);
  });

  it('refuses a wrong password and an unknown user with the same 401 message', async () => {
    const wrong = await call(ctx.app, 'POST', 'account/login', {
      body: { userName: ADMIN.userName, password: 'nope' },
    });
    const unknown = await call(ctx.app, 'POST', 'account/login', {
      body: { userName: '1234567890', password: 'nope' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid username or password' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses customers with the seed message', async () => {
    const res = await call(ctx.app, 'POST', 'account/login', {
      body: { userName: CUSTOMER, password: DEMO_PASSWORD },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Customer login not allowed on panel. Please download app!');
  });

  it('refuses an inactive user with a clear message', async () => {
    const res = await call(ctx.app, 'POST', 'account/login', {
      body: { userName: INACTIVE_RETAILER, password: DEMO_PASSWORD },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Your account is inactive. Please contact your administrator.');
  });

  it('does not reveal a customer or an inactive user to a wrong password', async () => {
    const res = await call(ctx.app, 'POST', 'account/login', {
      body: { userName: CUSTOMER, password: 'wrong' },
    });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid username or password');
  });

  it('validates the body with field messages', async () => {
    const res = await call(ctx.app, 'POST', 'account/login', { body: { userName: 'abc' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid data!');
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { msg: 'Minimum length not fulfilled', param: 'userName' },
        { msg: 'This field is required', param: 'password' },
      ]),
    );
  });

  it('refuses a user name over 100 characters and a password over 200, saying the bound', async () => {
    const res = await call(ctx.app, 'POST', 'account/login', {
      body: { userName: '9'.repeat(101), password: 'p'.repeat(201) },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid data!');
    expect(res.body.errors).toEqual([
      { msg: 'At most 100 characters', param: 'userName' },
      { msg: 'At most 200 characters', param: 'password' },
    ]);
  });

  it('refuses malformed JSON with a 400 JSON error', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/account/login',
      headers: { 'content-type': 'application/json', cookie: 'XSRF-TOKEN=x', 'x-xsrf-token': 'x' },
      payload: '{"userName":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/JSON/i);
    expect(res.body).not.toMatch(/at .*\.js:\d+/);
  });

  it('throttles a user name after 5 failures in 15 minutes, even with the right password, until the window passes', async () => {
    const userName = '9300000002';
    for (let i = 0; i < 5; i++) {
      const res = await call(ctx.app, 'POST', 'account/login', { body: { userName, password: `wrong${i}` } });
      expect(res.status).toBe(401);
    }
    const locked = await call(ctx.app, 'POST', 'account/login', {
      body: { userName, password: DEMO_PASSWORD },
    });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('Too many failed login attempts. Try again in 15 minutes.');
    expect(locked.headers['retry-after']).toBe('900');
    // Another user name is not affected.
    expect(
      (
        await call(ctx.app, 'POST', 'account/login', {
          body: { userName: '9300000003', password: DEMO_PASSWORD },
        })
      ).status,
    ).toBe(200);
    // Once the failures are older than the window, the right password works again.
    await ctx.database.db.execute(sql`update login_failures set failed_at = now() - interval '16 minutes'`);
    const after = await call(ctx.app, 'POST', 'account/login', {
      body: { userName, password: DEMO_PASSWORD },
    });
    expect(after.status).toBe(200);
  });
});

describe('session token and XSRF', () => {
  it('refuses a private call without a token', async () => {
    const res = await call(ctx.app, 'GET', 'report/userCounts');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Authentication required' });
  });

  it('refuses an unknown token and a token without the bearer prefix', async () => {
    const bad = await call(ctx.app, 'GET', 'report/userCounts', { token: 'not-a-real-token' });
    expect(bad.status).toBe(401);
    expect(bad.body.message).toBe('Invalid session token');
    const { token } = await login(ctx.app, ADMIN.userName, ADMIN.password);
    const raw = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/report/userCounts',
      headers: { 'x-auth-token': token },
    });
    expect(raw.statusCode).toBe(401);
    expect(raw.json().message).toBe('Authentication required');
  });

  it('refuses an expired token', async () => {
    const { token } = await login(ctx.app, ADMIN.userName, ADMIN.password);
    expect((await call(ctx.app, 'GET', 'report/userCounts', { token })).status).toBe(200);
    await ctx.database.db.execute(sql`update sessions set expires_at = now() - interval '1 second'`);
    const res = await call(ctx.app, 'GET', 'report/userCounts', { token });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Your session has expired. Please log in again.');
  });

  it('refuses a state-changing call without a matching X-XSRF-TOKEN, and issues the cookie', async () => {
    const none = await call(ctx.app, 'POST', 'account/login', { body: ADMIN, xsrf: false });
    expect(none.status).toBe(403);
    expect(none.body.message).toBe('Invalid or missing XSRF token');
    expect(String(none.headers['set-cookie'])).toMatch(/XSRF-TOKEN=[^;]+; Path=\/; SameSite=Strict/);
    const mismatch = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/account/login',
      headers: { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abd' },
      payload: ADMIN,
    });
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json().message).toBe('Invalid or missing XSRF token');
  });

  it('logout revokes the token', async () => {
    const { token } = await login(ctx.app, ADMIN.userName, ADMIN.password);
    const out = await call(ctx.app, 'POST', 'account/logout', { token });
    expect(out.status).toBe(200);
    const after = await call(ctx.app, 'GET', 'report/userCounts', { token });
    expect(after.status).toBe(401);
    expect(after.body.message).toBe('Invalid session token');
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await call(ctx.app, 'GET', 'no/such/thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Route GET /api/v1/no/such/thing not found' });
  });
});

describe('GET account/fetch', () => {
  it('returns the caller itself in the wire shape', async () => {
    const { token, user } = await login(ctx.app, RETAILER, DEMO_PASSWORD);
    const res = await call(ctx.app, 'GET', 'account/fetch', { token, query: { _id: user._id } });
    expect(res.status).toBe(200);
    expect(res.body.result.totalCounts).toBe(1);
    const self = res.body.result.users[0];
    expect(self).toMatchObject({
      _id: user._id,
      name: 'Ganesh Mobile Store',
      mobile: { number: RETAILER },
      userName: { id: RETAILER },
      email: { address: `${RETAILER}@demo.tierdesk.in` },
      wallet: { balance: 0, clearingBalance: 0 },
      retailer: { distributorId: expect.any(String) },
    });
    expect(self.district[0].name).toEqual(expect.any(String));
    expect(self.tehsil[0].name).toEqual(expect.any(String));
  });

  it('refuses a malformed id', async () => {
    const { token } = await login(ctx.app, ADMIN.userName, ADMIN.password);
    const res = await call(ctx.app, 'GET', 'account/fetch', { token, query: { _id: 'abc' } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({ msg: 'Invalid user id', param: '_id' });
  });
});

describe('password change', () => {
  it('gates a user on the initial password to fetch-self, resetPassword and logout', async () => {
    const { token, user } = await login(ctx.app, NEW_EMPLOYEE, INITIAL_PASSWORD);
    expect(user).toMatchObject({ type: 5, passwordUpdatedAt: null });
    const counts = await call(ctx.app, 'GET', 'report/userCounts', { token });
    expect(counts.status).toBe(403);
    expect(counts.body.message).toBe('Password change required');
    const self = await call(ctx.app, 'GET', 'account/fetch', { token, query: { _id: user._id } });
    expect(self.status).toBe(200);
    expect(self.body.result.users[0].passwordUpdatedAt).toBeNull();
  });

  it('enforces the password policy', async () => {
    const { token } = await login(ctx.app, NEW_EMPLOYEE, INITIAL_PASSWORD);
    for (const weak of ['alllowercase1!', 'ALLUPPER1!', 'NoDigits!!', 'NoSpecial123', 'Ab1!']) {
      const res = await call(ctx.app, 'POST', 'account/resetPassword', {
        token,
        body: { oldPassword: INITIAL_PASSWORD, newPassword: weak, confirmPassword: weak },
      });
      expect(res.status, weak).toBe(400);
      expect(res.body.errors[0]).toEqual({
        msg: 'Password must contain at least eight characters, at least one number and both lower and uppercase letters and special characters',
        param: 'newPassword',
      });
    }
  });

  it('refuses a confirmation that does not match', async () => {
    const { token } = await login(ctx.app, NEW_EMPLOYEE, INITIAL_PASSWORD);
    const res = await call(ctx.app, 'POST', 'account/resetPassword', {
      token,
      body: { oldPassword: INITIAL_PASSWORD, newPassword: 'Strong@123', confirmPassword: 'Strong@124' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({
      msg: 'Password and confirm password should be same!',
      param: 'confirmPassword',
    });
  });

  it('refuses a wrong old password and missing fields', async () => {
    const { token } = await login(ctx.app, NEW_EMPLOYEE, INITIAL_PASSWORD);
    const wrong = await call(ctx.app, 'POST', 'account/resetPassword', {
      token,
      body: { oldPassword: 'Nope@1234', newPassword: 'Strong@123', confirmPassword: 'Strong@123' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Old password is incorrect');
    const empty = await call(ctx.app, 'POST', 'account/resetPassword', { token, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.map((e: { param: string }) => e.param).sort()).toEqual([
      'confirmPassword',
      'newPassword',
      'oldPassword',
    ]);
    expect(empty.body.errors[0].msg).toBe('This field is required');
    const long = `Aa1!${'x'.repeat(197)}`;
    const tooLong = await call(ctx.app, 'POST', 'account/resetPassword', {
      token,
      body: { oldPassword: long, newPassword: long, confirmPassword: long },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe('Invalid data!');
    expect(tooLong.body.errors).toEqual([
      { msg: 'At most 200 characters', param: 'oldPassword' },
      { msg: 'At most 200 characters', param: 'newPassword' },
      { msg: 'At most 200 characters', param: 'confirmPassword' },
    ]);
  });

  it('changes the password, sets the marker, and revokes every other session of the user', async () => {
    const first = await login(ctx.app, NEW_EMPLOYEE, INITIAL_PASSWORD);
    const second = await login(ctx.app, NEW_EMPLOYEE, INITIAL_PASSWORD);
    const res = await call(ctx.app, 'POST', 'account/resetPassword', {
      token: second.token,
      body: { oldPassword: INITIAL_PASSWORD, newPassword: 'Strong@123', confirmPassword: 'Strong@123' },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Password Updated Successfully!');
    const revoked = await call(ctx.app, 'GET', 'account/fetch', {
      token: first.token,
      query: { _id: first.user._id },
    });
    expect(revoked.status).toBe(401);
    // The session that made the change stays, and now passes the gate.
    const counts = await call(ctx.app, 'GET', 'report/userCounts', { token: second.token });
    expect(counts.status).toBe(200);
    const oldPw = await call(ctx.app, 'POST', 'account/login', {
      body: { userName: NEW_EMPLOYEE, password: INITIAL_PASSWORD },
    });
    expect(oldPw.status).toBe(401);
    const fresh = await login(ctx.app, NEW_EMPLOYEE, 'Strong@123');
    expect(fresh.user).toMatchObject({ passwordUpdatedAt: expect.any(String) });
  });

  it('refuses reusing the old password as the new one', async () => {
    const { token } = await login(ctx.app, RETAILER, DEMO_PASSWORD);
    const res = await call(ctx.app, 'POST', 'account/resetPassword', {
      token,
      body: { oldPassword: DEMO_PASSWORD, newPassword: DEMO_PASSWORD, confirmPassword: DEMO_PASSWORD },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('New password must be different from the old password');
  });
});

describe('an inactive user is locked out at once', () => {
  it('stops a live session when the user is deactivated', async () => {
    const { token, user } = await login(ctx.app, '9300000004', DEMO_PASSWORD);
    expect((await call(ctx.app, 'GET', 'report/userCounts', { token })).status).toBe(200);
    await ctx.database.db.execute(sql`update users set status = 'INACTIVE' where id = ${user._id}`);
    const res = await call(ctx.app, 'GET', 'report/userCounts', { token });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Your account is inactive. Please contact your administrator.');
  });
});
