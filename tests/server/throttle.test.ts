import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { parseTrustProxy } from '../../src/server/config';
import { PersonalDataCipher } from '../../src/server/security/personal-data';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let admin: string;
beforeAll(async () => {
  ctx = await makeTestContext();
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
});
afterAll(async () => {
  await ctx?.close();
});

const LOCKED = 'Too many failed login attempts. Try again in 15 minutes.';
const attempt = (userName: string, password: string, ip: string, app = ctx.app) =>
  call(app, 'POST', 'account/login', { body: { userName, password }, ip });

async function failTimes(times: number, userName: string, ip: string) {
  for (let i = 0; i < times; i++) {
    const res = await attempt(userName, `wrong-${i}`, ip);
    expect(res.status, JSON.stringify(res.body)).toBe(401);
  }
}

describe('sign-in throttle', () => {
  it('counts failures under the user name and under the mobile number together', async () => {
    const tehsil = (await call(ctx.app, 'GET', 'tehsil/fetch', { query: { limit: '1' } })).body.result
      .tehsil[0];
    const created = await call(ctx.app, 'POST', 'account/create', {
      token: admin,
      body: {
        type: 5,
        name: 'Two Names',
        email: 'two.names@example.in',
        mobile: '9876500001',
        userName: 'two.names',
        districtId: tehsil.districtId._id,
        tehsilId: tehsil._id,
        password: 'Start@1234',
        confirmPassword: 'Start@1234',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const ip = '10.1.0.1';
    await failTimes(3, 'two.names', ip);
    await failTimes(2, '9876500001', ip);
    for (const name of ['TWO.NAMES', '9876500001']) {
      const locked = await attempt(name, 'Start@1234', ip);
      expect(locked.status).toBe(429);
      expect(locked.body).toEqual({ message: LOCKED });
      expect(locked.headers['retry-after']).toBe('900');
    }
  });

  it('locks the guessing address out first: the real user elsewhere still signs in', async () => {
    await failTimes(5, '9300000003', '10.2.0.1');
    const attacker = await attempt('9300000003', DEMO_PASSWORD, '10.2.0.1');
    expect(attacker.status).toBe(429);
    expect(attacker.body.message).toBe(LOCKED);
    const owner = await attempt('9300000003', DEMO_PASSWORD, '10.2.0.2');
    expect(owner.status).toBe(200);
    // The owner's sign-in does not lift the attacker's lock.
    expect((await attempt('9300000003', DEMO_PASSWORD, '10.2.0.1')).status).toBe(429);
  });

  it('locks the account for everyone after 20 failures from several addresses', async () => {
    for (let address = 1; address <= 4; address++) await failTimes(5, '9300000005', `10.3.0.${address}`);
    const owner = await attempt('9300000005', DEMO_PASSWORD, '10.3.1.1');
    expect(owner.status).toBe(429);
    expect(owner.body).toEqual({ message: LOCKED });
    expect(owner.headers['retry-after']).toBe('900');
  });

  it('throttles unknown names the same way, so a 429 reveals nothing', async () => {
    await failTimes(5, 'nobody-here', '10.4.0.1');
    const res = await attempt('nobody-here', 'whatever', '10.4.0.1');
    expect(res.status).toBe(429);
    expect(res.body.message).toBe(LOCKED);
  });

  it('limits sign-in attempts from one address across every user name (password spraying)', async () => {
    const ip = '10.5.0.1';
    for (let i = 0; i < 30; i++) {
      const res = await attempt(`sprayed-${i}`, 'Summer@2026', ip);
      expect(res.status).toBe(401);
    }
    const limited = await attempt(ADMIN.userName, ADMIN.password, ip);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      message: 'Too many sign-in attempts from this network. Try again in 15 minutes.',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(850);
    expect((await attempt(ADMIN.userName, ADMIN.password, '10.5.0.2')).status).toBe(200);
  });

  it('takes its per-address limit from SIGN_INS_PER_ADDRESS', async () => {
    const small = await makeTestContext({ config: { signInsPerAddress: 3 } });
    try {
      const tryOnce = () => attempt('sprayed', 'Summer@2026', '10.6.0.1', small.app);
      for (let i = 0; i < 3; i++) expect((await tryOnce()).status).toBe(401);
      const limited = await tryOnce();
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({
        message: 'Too many sign-in attempts from this network. Try again in 15 minutes.',
      });
    } finally {
      await small.close();
    }
  });
});

describe('password change throttle', () => {
  it('locks out wrong old passwords after 5, sharing the sign-in counter', async () => {
    const ip = '10.6.0.1';
    const { token } = await login(ctx.app, '9300000006', DEMO_PASSWORD);
    const change = (oldPassword: string) =>
      call(ctx.app, 'POST', 'account/resetPassword', {
        token,
        ip,
        body: { oldPassword, newPassword: 'Fresh@12345', confirmPassword: 'Fresh@12345' },
      });
    for (let i = 0; i < 5; i++) {
      const res = await change(`Wrong@${i}000`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Old password is incorrect');
    }
    const locked = await change(DEMO_PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ message: 'Too many wrong passwords. Try again in 15 minutes.' });
    expect(locked.headers['retry-after']).toBe('900');
    expect((await attempt('9300000006', DEMO_PASSWORD, ip)).status).toBe(429);
  });
});

describe('TRUST_PROXY', () => {
  it('takes a hop count or a list of proxy addresses, never "trust everything"', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('10.0.0.1, 10.0.1.0/24,loopback')).toEqual([
      '10.0.0.1',
      '10.0.1.0/24',
      'loopback',
    ]);
    for (const bad of ['true', '*', 'proxy.example.in'])
      expect(() => parseTrustProxy(bad)).toThrow(
        `TRUST_PROXY must be a hop count (such as 1) or a comma-separated list of proxy addresses; got "${bad}"`,
      );
  });

  it('behind one proxy, sees the address the proxy adds, not one the client forged', async () => {
    const proxied = await makeTestContext({ config: { trustProxy: 1 } });
    try {
      const through = (forged: string) =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/v1/account/login',
          remoteAddress: '127.0.0.1',
          headers: {
            cookie: 'XSRF-TOKEN=x',
            'x-xsrf-token': 'x',
            'x-forwarded-for': `${forged}, 198.51.100.7`,
          },
          payload: { userName: '9300000002', password: 'wrong' },
        });
      for (let i = 0; i < 5; i++) expect((await through(`203.0.113.${i}`)).statusCode).toBe(401);
      const res = await through('203.0.113.99');
      expect(res.statusCode).toBe(429);
      // A client reaching the server directly (not from a private address) cannot pick an address at all.
      const direct = (forged: string) =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/v1/account/login',
          remoteAddress: '192.0.2.10',
          headers: { cookie: 'XSRF-TOKEN=x', 'x-xsrf-token': 'x', 'x-forwarded-for': forged },
          payload: { userName: '9300000004', password: 'wrong' },
        });
      for (let i = 0; i < 5; i++) expect((await direct(`203.0.113.${i}`)).statusCode).toBe(401);
      expect((await direct('203.0.113.200')).statusCode).toBe(429);
    } finally {
      await proxied.close();
    }
  });

  it('ignores X-Forwarded-For when unset', async () => {
    const forged = (i: number) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/account/login',
        remoteAddress: '10.7.0.1',
        headers: { cookie: 'XSRF-TOKEN=x', 'x-xsrf-token': 'x', 'x-forwarded-for': `203.0.113.${i}` },
        payload: { userName: '9300000007', password: 'wrong' },
      });
    for (let i = 0; i < 5; i++) expect((await forged(i)).statusCode).toBe(401);
    expect((await forged(99)).statusCode).toBe(429);
  });
});

describe('the failure table does not grow without bound', () => {
  it('prunes failures older than the window when the app starts, and keeps recent ones', async () => {
    await ctx.database.db.execute(
      sql`insert into login_failures (account, ip, failed_at) values
        ('prune-old', '10.8.0.1', now() - interval '2 hours'),
        ('prune-old', '10.8.0.1', now() - interval '16 minutes'),
        ('prune-new', '10.8.0.1', now() - interval '1 minute')`,
    );
    const app = await buildApp({
      config: ctx.config,
      db: ctx.database.db,
      cipher: new PersonalDataCipher(randomBytes(32)),
      ledgerKey: randomBytes(32),
      webhookSecret: 'unused',
      logger: false,
    });
    await app.ready();
    await app.close();
    const { rows } = await ctx.database.pool.query(
      "select account from login_failures where account like 'prune-%' order by account",
    );
    expect(rows).toEqual([{ account: 'prune-new' }]);
  });
});
