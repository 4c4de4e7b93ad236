import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext } from './helpers';
import { idsByMobile } from './selling';

/**
 * PROVIDER_MODE=http against a fake partner: a real HTTP server on loopback that answers as the partner would,
 * or fails, or hangs, depending on what the test asks of it.
 */
type Behaviour = 'ok' | 'error' | 'slow' | 'garbage' | 'no-merchant';
let behaviour: Behaviour = 'ok';
let received: { method: string; url: string; body: string }[] = [];
let counter = 0;
const partner = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    received.push({ method: req.method ?? '', url: req.url ?? '', body });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    counter++;
    switch (behaviour) {
      case 'ok':
        return json(200, {
          result: {
            result: { data: `https://bank.example/open?session=abc&utm_code=FAKE${counter}` },
            merchantCode: 'MERCHANT-42',
          },
        });
      case 'error':
        return json(500, { message: 'internal partner error' });
      case 'garbage':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html>maintenance</html>');
      case 'no-merchant':
        return json(200, { result: { result: { data: 'https://bank.example/open?utm_code=X' } } });
      case 'slow':
        // Never answers within the test's PROVIDER_TIMEOUT_MS; answers later so the socket closes cleanly.
        setTimeout(() => json(200, {}), 3_000);
        return;
    }
  });
});

let ctx: TestContext;
let base: string;
let admin: string;
let retailer: string;
let ids: Record<string, string>;
let saving: Record<string, unknown> & { _id: string; providerId: { _id: string } };

const openings = async () =>
  Number((await ctx.database.pool.query('select count(*) as n from account_openings')).rows[0].n);

beforeAll(async () => {
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(partner.address() as AddressInfo).port}`;
  ctx = await makeTestContext({
    config: { providerMode: 'http', providerBaseUrl: `${base}/api/v1`, providerTimeoutMs: 500 },
  });
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  retailer = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
  ids = await idsByMobile(ctx.app, admin);
  const list = await call(ctx.app, 'GET', 'products/fetch', {
    token: admin,
    query: { searchText: 'Saving' },
  });
  saving = list.body.result.products[0];
  // The product's own URL and method are the partner's address for it.
  const updated = await call(ctx.app, 'POST', `products/update/${saving._id}`, {
    token: admin,
    body: {
      ...saving,
      providerId: saving.providerId._id,
      url: `${base}/partner/saving`,
      urlParams: { reqType: 'POST', data: 'PAYUSPRINT-SAVING' },
    },
  });
  expect(updated.status).toBe(200);
});
afterAll(async () => {
  await ctx.close();
  await new Promise((resolve) => partner.close(resolve));
});

const open = (
  body: Record<string, unknown> = {
    accountType: 'PAYUSPRINT-SAVING',
    productId: saving._id,
    customerId: ids['9400000001'],
  },
) => call(ctx.app, 'POST', 'payusprint/saving_account', { token: retailer, body });

describe('PROVIDER_MODE=http', () => {
  it('calls the product’s URL with its method and answers the partner’s link, which a sale can then use', async () => {
    behaviour = 'ok';
    received = [];
    const res = await open();
    expect(res.status).toBe(200);
    const url = res.body.result.result.data as string;
    expect(url).toMatch(/^https:\/\/bank\.example\/open\?session=abc&utm_code=FAKE\d+$/);
    expect(res.body.result.merchantCode).toBe('MERCHANT-42');
    // The partner learns the account type, nothing of Tierdesk's ids.
    expect(received).toEqual([
      { method: 'POST', url: '/partner/saving', body: JSON.stringify({ accountType: 'PAYUSPRINT-SAVING' }) },
    ]);

    const sale = await call(ctx.app, 'POST', 'bought_products/create', {
      token: retailer,
      body: {
        customerId: ids['9400000001'],
        productId: saving._id,
        utmCode: url.slice(url.lastIndexOf('=') + 1),
        merchantCode: 'MERCHANT-42',
      },
    });
    expect(sale.status).toBe(200);
    expect(sale.body.result.status).toBe('PENDING');
  });

  it('sends a GET product’s account type as a query, and asks nothing for an opening without a product', async () => {
    behaviour = 'ok';
    const current = (
      await call(ctx.app, 'GET', 'products/fetch', { token: admin, query: { searchText: 'Current' } })
    ).body.result.products[0];
    await call(ctx.app, 'POST', `products/update/${current._id}`, {
      token: admin,
      body: {
        ...current,
        providerId: current.providerId._id,
        url: `${base}/partner/current`,
        urlParams: { reqType: 'GET', data: 'PAYUSPRINT-CURRENT' },
      },
    });
    received = [];
    const byGet = await call(ctx.app, 'POST', 'payusprint/current_account', {
      token: retailer,
      body: { accountType: 'PAYUSPRINT-CURRENT', productId: current._id },
    });
    expect(byGet.status).toBe(200);
    const noProduct = await call(ctx.app, 'POST', 'payusprint/current_account', {
      token: retailer,
      body: { accountType: 'PAYUSPRINT-SOLE-PROPRIETOR' },
    });
    // An opening is bound to a product (issue 41): without one it is refused before the partner is asked.
    expect(noProduct.status).toBe(400);
    expect(noProduct.body.errors).toEqual([
      { msg: 'Choose the product this account opening is for', param: 'productId' },
    ]);
    expect(received.map((r) => [r.method, r.url, r.body])).toEqual([
      ['GET', '/partner/current?accountType=PAYUSPRINT-CURRENT', ''],
    ]);
  });

  it('turns the partner’s failures into a 502, its silence into a 504, and records nothing', async () => {
    const before = await openings();
    const cases: [Behaviour, number, string][] = [
      ['error', 502, 'The partner could not open the account (HTTP 500)'],
      ['garbage', 502, "The partner's answer could not be read"],
      ['no-merchant', 502, "The partner's answer could not be read"],
      ['slow', 504, 'The partner did not answer in time'],
    ];
    for (const [mode, status, message] of cases) {
      behaviour = mode;
      const res = await open();
      expect(res.status, mode).toBe(status);
      expect(res.body, mode).toEqual({ message });
    }
    expect(await openings()).toBe(before);
  });

  it('answers 502 when the partner cannot be reached at all', async () => {
    const unreachable = await makeTestContext({
      demo: false,
      config: {
        providerMode: 'http',
        providerBaseUrl: 'http://127.0.0.1:9/api/v1',
        providerTimeoutMs: 2_000,
      },
    });
    try {
      const token = (await login(unreachable.app, ADMIN.userName, ADMIN.password)).token;
      const provider = await call(unreachable.app, 'POST', 'providers/create', {
        token,
        body: { name: 'Unreachable Bank' },
      });
      const product = await call(unreachable.app, 'POST', 'products/create', {
        token,
        body: {
          providerId: provider.body.result._id,
          name: 'Saving Account',
          url: 'http://127.0.0.1:9/partner/saving',
          amount: 500,
          adminCommission: 40,
          masterDistributorCommission: 15,
          distributorCommission: 15,
          retailerCommission: 20,
          customerCommission: 10,
          urlParams: { reqType: 'POST', data: 'PAYUSPRINT-SAVING' },
        },
      });
      expect(product.status).toBe(200);
      const res = await call(unreachable.app, 'POST', 'payusprint/saving_account', {
        token,
        body: { productId: product.body.result._id },
      });
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ message: 'The partner could not be reached' });
    } finally {
      await unreachable.close();
    }
  });

  it('serves no sandbox in http mode, and tells the panel so (no sandbox banner)', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/sandbox/open?utmCode=X' });
    expect(page.statusCode).toBe(404);
    const api = await ctx.app.inject({ method: 'POST', url: '/sandbox/api/payusprint/saving_account' });
    expect(api.statusCode).toBe(404);
    const mode = await call(ctx.app, 'GET', 'partner/mode', { xsrf: false });
    expect(mode.status).toBe(200);
    expect(mode.body).toEqual({ result: { providerMode: 'http' } });
  });

  it('sends the real partner no signature and no customer', async () => {
    behaviour = 'ok';
    received = [];
    const headers: Record<string, string | string[] | undefined>[] = [];
    const listener = (req: http.IncomingMessage) => headers.push(req.headers);
    partner.on('request', listener);
    try {
      expect((await open()).status).toBe(200);
    } finally {
      partner.off('request', listener);
    }
    expect(headers).toHaveLength(1);
    expect(headers[0]['x-provider-signature']).toBeUndefined();
    expect(received[0].body).toBe(JSON.stringify({ accountType: 'PAYUSPRINT-SAVING' }));
  });
});
