import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCallback } from '../../src/server/security/signature';
import { ADMIN, call, login, makeTestContext, type TestContext, WEBHOOK_SECRET, XSRF } from './helpers';

let ctx: TestContext;
let admin: string;
let retailer: string;
const routes: RouteOptions[] = [];
beforeAll(async () => {
  ctx = await makeTestContext({ onRoute: (route) => routes.push(route) });
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  retailer = (await login(ctx.app, '9300000001', 'Demo@1234')).token;
});
afterAll(async () => {
  await ctx?.close();
});

const INVALID_TEXT = 'Text must not contain NUL bytes, control characters or invalid Unicode';
const refusal = (param: string) => ({ message: 'Invalid data!', errors: [{ msg: INVALID_TEXT, param }] });
const ID = '5b0f6a0e-8c1d-4c55-9d1e-2f3a4b5c6d7e';

const headers = (token?: string) => ({
  cookie: `XSRF-TOKEN=${XSRF}`,
  'x-xsrf-token': XSRF,
  ...(token ? { 'x-auth-token': `bearer ${token}` } : {}),
});

const apiRoutes = () =>
  routes
    .filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'HEAD')
    .map((r) => ({ method: r.method as 'GET' | 'POST', url: r.url.replace(/:[A-Za-z_]+/g, ID) }));

describe('text PostgreSQL would refuse never reaches it', () => {
  it('answers an anonymous search with a NUL byte 400, and the next caller is served', async () => {
    const bad = await ctx.app.inject({ method: 'GET', url: '/api/v1/state/fetch?searchText=%00' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(refusal('searchText'));
    const next = await call(ctx.app, 'GET', 'state/fetch', { token: retailer });
    expect(next.status).toBe(200);
    expect(next.body.result.state.length).toBeGreaterThan(0);
  });

  it('refuses NUL in the query, the body, a nested field and a key, on every route', async () => {
    const wrong: string[] = [];
    for (const route of apiRoutes()) {
      const attempts = [
        { query: { searchText: 'a\u0000b' }, param: 'searchText' },
        ...(route.method === 'POST'
          ? [
              { payload: { name: 'Pune\u0000' }, param: 'name' },
              { payload: { customer: { panId: '\u0000' } }, param: 'customer.panId' },
              { payload: { 'na\u0000me': 'x' }, param: 'na?me' },
            ]
          : []),
      ];
      for (const attempt of attempts) {
        const payload = 'payload' in attempt ? JSON.stringify(attempt.payload) : undefined;
        // The partner's callback authenticates by signature before it reads its body: sign what is sent.
        const signed =
          payload && route.url.endsWith('/bought_products/callback')
            ? { 'x-provider-signature': signCallback(WEBHOOK_SECRET, payload) }
            : {};
        const res = await ctx.app.inject({
          method: route.method,
          url: route.url,
          headers: {
            ...headers(admin),
            ...signed,
            ...(payload ? { 'content-type': 'application/json' } : {}),
          },
          query: attempt.query,
          payload,
        });
        if (res.statusCode !== 400 || JSON.stringify(res.json()) !== JSON.stringify(refusal(attempt.param)))
          wrong.push(
            `${route.method} ${route.url} ${attempt.param} -> ${res.statusCode} ${res.body.slice(0, 120)}`,
          );
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a NUL in a path parameter', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/state/update/%00',
      headers: headers(admin),
      payload: { name: 'Goa' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(refusal('id'));
  });

  it('refuses lone surrogates and other control characters, and keeps tabs, new lines and every script', async () => {
    for (const text of ['\\ud800', 'a\\udc00b', '\\u0007', '\\u001b[2J']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/state/create',
        headers: { ...headers(admin), 'content-type': 'application/json' },
        payload: `{"name":"${text}"}`,
      });
      expect(res.statusCode, text).toBe(400);
      expect(res.json()).toEqual(refusal('name'));
    }
    const ok = await call(ctx.app, 'POST', 'state/create', {
      token: admin,
      body: { name: 'उत्तराखंड 山 😀\tx' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.result.name).toBe('उत्तराखंड 山 😀\tx');
  });

  it('refuses bodies nested too deeply, however deep, with a 400', async () => {
    for (const depth of [20, 5_000, 200_000]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/account/login',
        headers: { ...headers(), 'content-type': 'application/json' },
        payload: `${'['.repeat(depth)}${']'.repeat(depth)}`,
      });
      expect(res.statusCode, String(depth)).toBe(400);
      expect(res.json().errors[0].msg).toBe('Data is nested too deeply');
    }
  });

  it('checks multipart text parts and file names the same way', async () => {
    const boundary = 'XBOUNDARY';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="leadType"',
      '',
      'RETAILER\u0000',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/leads/create',
      headers: { ...headers(), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
      remoteAddress: '10.31.0.1',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(refusal('leadType'));
  });
});

describe('a database error on one request does not affect another', () => {
  it('serves the next query after a failed one on the shared connection', async () => {
    for (let i = 0; i < 3; i++) {
      await expect(ctx.database.pool.query('select 1/0')).rejects.toThrow('division by zero');
      const next = await call(ctx.app, 'GET', 'state/fetch', { token: retailer });
      expect(next.status).toBe(200);
    }
  });

  it('answers racing duplicates 409 and everyone else normally', async () => {
    for (let round = 0; round < 3; round++) {
      const name = `Racing State ${round}`;
      const results = await Promise.all([
        ...Array.from({ length: 6 }, () =>
          call(ctx.app, 'POST', 'state/create', { token: admin, body: { name } }),
        ),
        ...Array.from({ length: 6 }, () => call(ctx.app, 'GET', 'report/userCounts', { token: retailer })),
      ]);
      const creates = results.slice(0, 6);
      expect(creates.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of creates.filter((r) => r.status !== 200)) {
        expect(r.status).toBe(409);
        expect(r.body).toEqual({
          message: `A state named "${name}" already exists`,
          errors: [{ msg: `A state named "${name}" already exists`, param: 'name' }],
        });
      }
      for (const r of results.slice(6)) expect(r.status).toBe(200);
    }
  });
});
