import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxAccounts } from '../../src/server/db/schema';
import { SANDBOX_LIMITS } from '../../src/server/modules/partner/sandbox';
import { signCallback } from '../../src/server/security/signature';
import {
  ADMIN,
  call,
  DEMO_PASSWORD,
  login,
  makeTestContext,
  type TestContext,
  WEBHOOK_SECRET,
} from './helpers';
import { clickSandbox, idsByMobile, productIdOf, sell } from './selling';

/**
 * The built-in sandbox partner is safe to leave on (issue 41): its page and buttons act only for a visitor
 * holding the opening's key, its API answers only the server's own signed calls, every part of it is
 * rate-limited, and its page shows no name the opening did not carry.
 */
let ctx: TestContext;
let admin: string;
let retailer: string;
let ids: Record<string, string>;
let savingId: string;

beforeAll(async () => {
  ctx = await makeTestContext();
  // The gateway calls the sandbox over real HTTP on the server's own address.
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  retailer = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
  ids = await idsByMobile(ctx.app, admin);
  ids.admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).user._id;
  savingId = await productIdOf(ctx.app, admin);
});
afterAll(() => ctx.close());

/** Each test's requests come from an address of its own, so one test's limits do not reach another's. */
let addresses = 0;
const nextAddress = () => `198.51.100.${++addresses}`;

const pendingSale = async () => {
  const sold = await sell(ctx.app, retailer, { customerId: ids['9400000002'], productId: savingId });
  expect(sold.recorded.status).toBe(200);
  return { ...sold, id: sold.recorded.body.result._id as string };
};

const statusOf = async (id: string) =>
  (await call(ctx.app, 'GET', 'bought_products/fetch', { token: admin, query: { _id: id } })).body.result
    .boughtProducts[0].status as string;

const page = (query: string, remoteAddress = '127.0.0.1') =>
  ctx.app.inject({ method: 'GET', url: `/sandbox/open?${query}`, remoteAddress });

const post = (path: string, form: Record<string, string> | undefined, remoteAddress = '127.0.0.1') =>
  ctx.app.inject({
    method: 'POST',
    url: path,
    remoteAddress,
    ...(form
      ? {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(form).toString(),
        }
      : {}),
  });

const api = (
  body: unknown,
  opts: { signature?: string | null; remoteAddress?: string; call?: string } = {},
) => {
  const raw = JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const signature = opts.signature === undefined ? signCallback(WEBHOOK_SECRET, raw) : opts.signature;
  if (signature !== null) headers['x-provider-signature'] = signature;
  return ctx.app.inject({
    method: 'POST',
    url: `/sandbox/api/payusprint/${opts.call ?? 'saving_account'}`,
    headers,
    payload: raw,
    remoteAddress: opts.remoteAddress ?? '127.0.0.1',
  });
};

const openingCount = async () =>
  Number((await ctx.database.pool.query('select count(*) as n from sandbox_accounts')).rows[0].n);

describe('the opening page acts only for a visitor holding the link’s key', () => {
  it('gives a link with a 128-bit key before the utmCode, and stores only the key’s hash', async () => {
    const { url, key, utmCode } = await pendingSale();
    expect(url).toMatch(/\/sandbox\/open\?key=[\w-]{22}&utmCode=SBX[0-9A-F]{16}$/);
    expect(Buffer.from(key, 'base64url')).toHaveLength(16);
    const { rows } = await ctx.database.pool.query(
      'select key_hash, customer_name from sandbox_accounts where utm_code = $1',
      [utmCode],
    );
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(key);
    // The name Tierdesk's signed call sent.
    expect(rows[0].customer_name).toBe('Sunita Devi');
  });

  it('refuses a bare utmCode (403), and a wrong key and an unknown utmCode alike (404)', async () => {
    const { utmCode, key, id } = await pendingSale();
    const bare = await page(`utmCode=${utmCode}`);
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toEqual({
      message:
        "This page opens only from the full link Tierdesk gave for the sale: the link's key is missing",
    });
    expect(bare.body).not.toContain('Sunita');
    const emptyKey = await page(`key=&utmCode=${utmCode}`);
    expect(emptyKey.statusCode).toBe(403);
    // A bare utmCode that does not exist gets the same answer as one that does.
    const bareUnknown = await page('utmCode=SBX0000000000000000');
    expect(bareUnknown.statusCode).toBe(403);
    expect(bareUnknown.json()).toEqual(bare.json());

    const wrong = await page(`key=${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}&utmCode=${utmCode}`);
    const unknown = await page(`key=${key}&utmCode=SBX0000000000000000`);
    for (const refused of [wrong, unknown]) {
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ message: 'No account opening in the sandbox matches this link' });
    }
    // Another opening's key does not open this one.
    const other = await pendingSale();
    const crossed = await page(`key=${other.key}&utmCode=${utmCode}`);
    expect(crossed.statusCode).toBe(404);

    const right = await page(`key=${key}&utmCode=${utmCode}`);
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('Sunita Devi');
    // Every button's form carries the key.
    expect(right.body.match(/<input type="hidden" name="key" value="([^"]+)">/g)).toHaveLength(2);
    expect(right.body).toContain(`<input type="hidden" name="key" value="${key}">`);
    expect(await statusOf(id)).toBe('PENDING');
  });

  it('acts on no button without the key or with a wrong one: the sale stays PENDING', async () => {
    const { utmCode, key, id } = await pendingSale();
    const cases: [string, Record<string, string> | undefined, number, string][] = [
      [
        'no body',
        undefined,
        403,
        "This page opens only from the full link Tierdesk gave for the sale: the link's key is missing",
      ],
      [
        'no key',
        { go: '1' },
        403,
        "This page opens only from the full link Tierdesk gave for the sale: the link's key is missing",
      ],
      [
        'wrong key',
        { key: 'A'.repeat(22), go: '1' },
        404,
        'No account opening in the sandbox matches this link',
      ],
    ];
    for (const action of ['opened', 'abandon'])
      for (const [name, form, status, message] of cases) {
        const res = await post(`/sandbox/open/${utmCode}/${action}`, form);
        expect(res.statusCode, `${action} ${name}`).toBe(status);
        expect(res.json(), `${action} ${name}`).toEqual({ message });
      }
    // The key in the query does not stand in for the form's.
    const inQuery = await post(`/sandbox/open/${utmCode}/opened?key=${key}`, { go: '1' });
    expect(inQuery.statusCode).toBe(403);
    expect(await statusOf(id)).toBe('PENDING');

    const clicked = await clickSandbox(ctx.app, { utmCode, key }, 'opened');
    expect(clicked.statusCode).toBe(303);
    expect(clicked.headers.location).toBe(`/sandbox/open?key=${key}&utmCode=${utmCode}`);
    expect(await statusOf(id)).toBe('CONFIRMED');
    const reversedWithoutKey = await post(`/sandbox/open/${utmCode}/reverse`, { go: '1' });
    expect(reversedWithoutKey.statusCode).toBe(403);
    expect(await statusOf(id)).toBe('CONFIRMED');
  });

  it('refuses every visitor of an opening made before keys existed', async () => {
    await ctx.database.db.insert(sandboxAccounts).values({
      utmCode: 'SBXOLD0000000000001',
      merchantCode: 'SANDBOX-OLD',
      accountType: 'PAYUSPRINT-SAVING',
    });
    for (const key of ['x', 'A'.repeat(22)]) {
      const res = await page(`key=${key}&utmCode=SBXOLD0000000000001`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'No account opening in the sandbox matches this link' });
    }
  });
});

describe('the sandbox API answers only the server’s own signed calls', () => {
  it('refuses unsigned, badly signed and stale calls with 401 and records nothing', async () => {
    const before = await openingCount();
    const body = { accountType: 'PAYUSPRINT-SAVING', customerId: ids.admin };
    const cases: [string, string | null, string][] = [
      [
        'unsigned',
        null,
        "The sandbox partner answers only this Tierdesk server's signed calls: the signature is missing",
      ],
      [
        'other secret',
        signCallback('not-the-secret', JSON.stringify(body)),
        "The sandbox partner answers only this Tierdesk server's signed calls: the signature is invalid",
      ],
      [
        'another body',
        signCallback(WEBHOOK_SECRET, JSON.stringify({ ...body, accountType: 'PAYUSPRINT-CURRENT' })),
        "The sandbox partner answers only this Tierdesk server's signed calls: the signature is invalid",
      ],
      [
        'stale',
        signCallback(WEBHOOK_SECRET, JSON.stringify(body), Date.now() - 400_000),
        'The signature is too old or too far in the future',
      ],
    ];
    for (const [name, signature, message] of cases) {
      const res = await api(body, { signature, remoteAddress: nextAddress() });
      expect(res.statusCode, name).toBe(401);
      expect(res.json(), name).toEqual({ message });
      expect(res.body, name).not.toContain('sandbox/open');
    }
    expect(await openingCount()).toBe(before);
  });

  it('never shows a name the opening did not carry: the admin’s id shows no “Administrator”', async () => {
    // Signed (as only the server can), naming the admin's id but no name: the page looks no one up.
    const signed = await api({ accountType: 'PAYUSPRINT-SAVING', customerId: ids.admin });
    expect(signed.statusCode).toBe(200);
    const link = new URL(signed.json().result.result.data);
    const shown = await page(link.search.slice(1));
    expect(shown.statusCode).toBe(200);
    expect(shown.body).not.toContain('Administrator');
    expect(shown.body).toContain('<dt>Customer</dt><dd>Unknown Customer</dd>');
    // The panel's call names the customer as the seller sees them.
    const { url } = await pendingSale();
    const sold = await page(new URL(url).search.slice(1));
    expect(sold.body).toContain('<dd>Sunita Devi</dd>');
  });

  it('signs the gateway’s call: a sale through the panel still opens an account', async () => {
    const before = await openingCount();
    await pendingSale();
    expect(await openingCount()).toBe(before + 1);
  });
});

describe('the sandbox is rate-limited per address', () => {
  it('limits the page', async () => {
    const { url } = await pendingSale();
    const query = new URL(url).search.slice(1);
    const address = nextAddress();
    for (let n = 0; n < SANDBOX_LIMITS.page.max; n++)
      expect((await page(query, address)).statusCode).toBe(200);
    const limited = await page(query, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      message: 'Too many requests to the sandbox partner from this network. Try again in 1 minute.',
    });
    // Another address is not held back.
    expect((await page(query, nextAddress())).statusCode).toBe(200);
  });

  it('limits the buttons, wrong keys included', async () => {
    const { utmCode, key, id } = await pendingSale();
    const address = nextAddress();
    for (let n = 0; n < SANDBOX_LIMITS.action.max; n++)
      expect((await post(`/sandbox/open/${utmCode}/opened`, { key: `wrong${n}` }, address)).statusCode).toBe(
        404,
      );
    const limited = await post(`/sandbox/open/${utmCode}/opened`, { key }, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(
      'Too many requests to the sandbox partner from this network. Try again in 1 minute.',
    );
    expect(await statusOf(id)).toBe('PENDING');
  });

  it('limits unsigned API calls, and never counts the server’s signed ones', async () => {
    const address = nextAddress();
    const body = { accountType: 'PAYUSPRINT-SAVING' };
    for (let n = 0; n < SANDBOX_LIMITS.api.max; n++)
      expect((await api(body, { signature: null, remoteAddress: address })).statusCode).toBe(401);
    const limited = await api(body, { signature: null, remoteAddress: address });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(
      'Too many requests to the sandbox partner from this network. Try again in 1 minute.',
    );
    // Signed calls from the same address still pass, however many.
    for (let n = 0; n < 3; n++) expect((await api(body, { remoteAddress: address })).statusCode).toBe(200);
  });
});

describe('the panel learns that sales are simulated', () => {
  it('answers partner/mode "sandbox" to anyone, with no-store', async () => {
    const res = await call(ctx.app, 'GET', 'partner/mode', { xsrf: false });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: { providerMode: 'sandbox' } });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
