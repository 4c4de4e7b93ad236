import cookie from '@fastify/cookie';
import Fastify, { type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config';
import { apiGuards } from '../../src/server/http/api';
import { registerErrorHandler } from '../../src/server/http/errors';
import { ADMIN, call, login, makeTestContext, type TestContext, XSRF } from './helpers';

let ctx: TestContext;
let admin: string;
const routes: RouteOptions[] = [];
beforeAll(async () => {
  ctx = await makeTestContext({ onRoute: (route) => routes.push(route) });
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
});
afterAll(async () => {
  await ctx?.close();
});

const ID = '5b0f6a0e-8c1d-4c55-9d1e-2f3a4b5c6d7e';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Every route of the API the app registered (found by the app's own onRoute), with a concrete URL. */
function apiRoutes() {
  const seen = new Set<string>();
  return routes
    .flatMap((route) =>
      (Array.isArray(route.method) ? route.method : [route.method]).map((m) => ({ route, m })),
    )
    .filter(({ route }) => route.url.startsWith('/api/v1/'))
    .map(({ route, m }) => ({
      method: m as string,
      url: route.url.replace(/:[A-Za-z_]+/g, ID),
      xsrf: route.config?.xsrf !== false,
      access: route.config?.access ?? 'private',
    }))
    .filter((r) => {
      const key = `${r.method} ${r.url}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** The same path as a client might spell it: each must reach the same route, and so the same guards. */
function spellings(url: string) {
  const [, first, ...rest] = url.split('/');
  const encoded = url.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`);
  return [
    url,
    `${url}/`,
    url.replace('/api/v1/', '/api//v1//'),
    `/${first}//${rest.join('//')}`,
    url.toUpperCase(),
    url.replace('/api/', '/API/'),
    encoded,
    url.replace('/api/', '/%61pi/'),
    url.replace(
      /\/([a-z])([a-z]*)$/,
      (_m, c, tail) => `/%${c.charCodeAt(0).toString(16).toUpperCase()}${tail}`,
    ),
  ];
}

describe('guards run on the route that answers, however its path is spelled', () => {
  it('knows the routes from the app itself', () => {
    const found = apiRoutes();
    expect(found.length).toBeGreaterThan(20);
    expect(found.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'POST /api/v1/account/login',
        'POST /api/v1/leads/create',
        'GET /api/v1/state/fetch',
      ]),
    );
  });

  it('refuses every state-changing request without the XSRF header, under every spelling', async () => {
    const refusals: string[] = [];
    let checked = 0;
    for (const route of apiRoutes().filter((r) => STATE_CHANGING.has(r.method) && r.xsrf)) {
      for (const url of spellings(route.url)) {
        const res = await ctx.app.inject({
          method: route.method as 'POST',
          url,
          headers: { 'x-auth-token': `bearer ${admin}`, cookie: `XSRF-TOKEN=${XSRF}` },
          payload: {},
        });
        checked++;
        if (res.statusCode !== 403 || res.json().message !== 'Invalid or missing XSRF token')
          refusals.push(`${route.method} ${url} -> ${res.statusCode} ${res.body.slice(0, 80)}`);
      }
    }
    expect(refusals).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('refuses every private route without a token, under every spelling', async () => {
    const leaks: string[] = [];
    for (const route of apiRoutes().filter((r) => r.access === 'private' || r.access === 'session')) {
      for (const url of spellings(route.url)) {
        const res = await ctx.app.inject({
          method: route.method as 'GET',
          url,
          headers: { cookie: `XSRF-TOKEN=${XSRF}`, 'x-xsrf-token': XSRF },
          ...(route.method === 'GET' ? {} : { payload: {} }),
        });
        const message = route.method === 'HEAD' ? 'Authentication required' : res.json().message;
        if (res.statusCode !== 401 || message !== 'Authentication required')
          leaks.push(`${route.method} ${url} -> ${res.statusCode} ${res.body.slice(0, 80)}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('serves the same answer under another spelling', async () => {
    const plain = await call(ctx.app, 'GET', 'state/fetch', { query: { limit: '3' } });
    for (const url of spellings('/api/v1/state/fetch')) {
      const res = await ctx.app.inject({ method: 'GET', url: `${url}?limit=3` });
      expect(res.statusCode, url).toBe(200);
      expect(res.json(), url).toEqual(plain.body);
    }
  });
});

describe('unknown API paths', () => {
  it('answer 404 JSON with or without a token, and without the XSRF header', async () => {
    const cases = [
      ['GET', '/api/v1/nope'],
      ['POST', '/api/v1/nope'],
      ['GET', '/api/nope'],
      ['POST', '/api/v2/state/create'],
      ['DELETE', '/api/v1/state/create'],
      ['GET', '/api/v1/state/fetch/extra'],
      ['GET', '/api'],
    ] as const;
    for (const [method, url] of cases) {
      for (const headers of [
        {},
        { 'x-auth-token': `bearer ${admin}` },
        { 'x-auth-token': 'bearer not-a-token' },
      ]) {
        const res = await ctx.app.inject({ method, url, headers });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.json()).toEqual({ message: `Route ${method} ${url} not found` });
      }
    }
  });
});

describe('a route may opt out of the XSRF check through its config', () => {
  it('lets a signed partner callback through without the XSRF token, and nothing else', async () => {
    const app = Fastify();
    app.decorate('db', ctx.database.db);
    await app.register(cookie);
    registerErrorHandler(app);
    await app.register(
      async (v1) => {
        await v1.register(apiGuards);
        v1.post('/callback', { config: { access: 'public', xsrf: false } }, async () => ({
          result: 'callback',
        }));
        v1.post('/form', { config: { access: 'public' } }, async () => ({ result: 'form' }));
      },
      { prefix: '/api/v1' },
    );
    const callback = await app.inject({ method: 'POST', url: '/api/v1/callback', payload: {} });
    expect(callback.statusCode).toBe(200);
    expect(callback.json()).toEqual({ result: 'callback' });
    const form = await app.inject({ method: 'POST', url: '/api/v1/form', payload: {} });
    expect(form.statusCode).toBe(403);
    expect(form.json()).toEqual({ message: 'Invalid or missing XSRF token' });
    await app.close();
  });
});

describe('a route that starts before its session is read again (config.readOnly)', () => {
  it("is a GET, and the panel's lists are such routes", () => {
    const early = routes.filter((route) => route.config?.readOnly);
    // Fastify answers HEAD for every GET route, with the same options.
    expect(new Set(early.map((route) => route.method))).toEqual(new Set(['GET', 'HEAD']));
    expect(
      early
        .filter((route) => route.method === 'GET')
        .map((route) => route.url)
        .sort(),
    ).toEqual(
      [
        'account/fetch',
        'approvals/fetch',
        'audit/fetch',
        'bought_products/fetch',
        'leads/fetch',
        'products/fetch',
        'providers/fetch',
        'report/commissions',
        'report/userCounts',
        'transactions/fetch',
        'wallet/fetch',
      ].map((path) => `/api/v1/${path}`),
    );
  });

  it('cannot be a route that writes: the server refuses to start with one', async () => {
    const app = Fastify();
    app.decorate('db', ctx.database.db);
    const starting = (async () => {
      await app.register(
        async (v1) => {
          await v1.register(apiGuards);
          v1.post('/save', { config: { readOnly: true } }, async () => ({ result: true }));
        },
        { prefix: '/api/v1' },
      );
      await app.ready();
    })();
    await expect(starting).rejects.toThrow('POST /api/v1/save is marked readOnly: only a GET route may be');
    await app.close();
  });
});

describe('headers', () => {
  it('never lets an API answer be cached, success, refusal or 404', async () => {
    const ok = await call(ctx.app, 'GET', 'state/fetch');
    const refused = await call(ctx.app, 'GET', 'account/fetch');
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(ok.status).toBe(200);
    expect(refused.status).toBe(401);
    for (const headers of [ok.headers, refused.headers, missing.headers])
      expect(headers['cache-control']).toBe('no-store');
  });

  it('sends the security headers: a CSP without inline scripts, no framing, no sniffing, no referrer', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/state/fetch' });
    const csp = String(res.headers['content-security-policy']);
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('marks the XSRF cookie Secure when the public URL is https, even over plain HTTP behind a proxy', async () => {
    const plain = await ctx.app.inject({ method: 'GET', url: '/api/v1/state/fetch' });
    expect(String(plain.headers['set-cookie'])).not.toMatch(/Secure/);

    const https = await makeTestContext({
      demo: false,
      config: { publicUrl: 'https://tierdesk.example.in' },
    });
    try {
      const res = await https.app.inject({ method: 'GET', url: '/api/v1/state/fetch' });
      const cookieHeader = String(res.headers['set-cookie']);
      expect(cookieHeader).toMatch(/^XSRF-TOKEN=/);
      expect(cookieHeader).toMatch(/; Secure/);
      expect(cookieHeader).toMatch(/SameSite=Strict/);
    } finally {
      await https.close();
    }
  });
});

describe('configuration', () => {
  it('reads PUBLIC_URL and refuses one that is not an http(s) URL', () => {
    expect(readConfig({ PUBLIC_URL: 'https://tierdesk.example.in/' }).publicUrl).toBe(
      'https://tierdesk.example.in',
    );
    expect(readConfig({}).publicUrl).toBeUndefined();
    expect(() => readConfig({ PUBLIC_URL: 'tierdesk.example.in' })).toThrow(
      'PUBLIC_URL must be an absolute http:// or https:// URL; got "tierdesk.example.in"',
    );
  });
});

describe('5xx answers', () => {
  it('are the generic message even when the failure is in a header or in sending the answer', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    await app.register(async (api) => {
      registerErrorHandler(api);
      api.addHook('onSend', async (request, _reply, payload) => {
        if (request.url === '/failing-hook') throw new Error('hook detail');
        return payload;
      });
      api.get('/bad-header', async (_request, reply) =>
        reply.header('content-disposition', 'inline; filename="पैन कार्ड.pdf"').send('file'),
      );
      api.get('/failing-hook', async () => ({ result: true }));
      api.get('/thrown', async () => {
        throw Object.assign(new Error('connection to 10.0.0.5 refused'), { code: 'ECONNREFUSED' });
      });
      api.get('/circular', async () => {
        const value: Record<string, unknown> = {};
        value.self = value;
        return value;
      });
    });
    for (const url of ['/bad-header', '/failing-hook', '/thrown', '/circular']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(500);
      expect(res.json(), url).toEqual({ message: 'Something went wrong on our side. Please try again.' });
    }
    await app.close();
  });
});
