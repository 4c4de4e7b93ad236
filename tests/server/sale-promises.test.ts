import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext, XSRF } from './helpers';
import { deliver, idsByMobile, productIdOf, sell } from './selling';

/**
 * Issue 41, item 10 (server side): `bought_products/create` under an `Idempotency-Key` header, and reopening a
 * pending sale through `bought_products/opening/:id`.
 */
let ctx: TestContext;
let admin: string;
let employee: string;
let retailer1: string;
let retailer2: string;
let distributor: string;
let ids: Record<string, string>;
let savingId: string;

beforeAll(async () => {
  ctx = await makeTestContext();
  // The sandbox partner is a real HTTP endpoint: the server must listen for it to be reached.
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  employee = (await login(ctx.app, '9000000001', DEMO_PASSWORD)).token;
  retailer1 = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
  retailer2 = (await login(ctx.app, '9300000002', DEMO_PASSWORD)).token;
  distributor = (await login(ctx.app, '9200000001', DEMO_PASSWORD)).token;
  ids = await idsByMobile(ctx.app, admin);
  savingId = await productIdOf(ctx.app, admin);
});
afterAll(() => ctx.close());

const saleCount = async () =>
  Number((await ctx.database.pool.query('select count(*) as n from bought_products')).rows[0].n);

/** An account opening for retailer1's customer, as `payusprint/saving_account` answers it. */
async function opening(token = retailer1, customerId = ids['9400000001']) {
  const res = await call(ctx.app, 'POST', 'payusprint/saving_account', {
    token,
    body: { productId: savingId, customerId },
  });
  expect(res.status).toBe(200);
  const url: string = res.body.result.result.data;
  return {
    url,
    body: {
      customerId,
      productId: savingId,
      utmCode: url.slice(url.lastIndexOf('=') + 1),
      merchantCode: res.body.result.merchantCode as string,
    },
  };
}

/** `bought_products/create` as the panel's Proceed sends it, with an Idempotency-Key header when given. */
async function create(body: Record<string, unknown>, key?: string, token = retailer1) {
  const headers: Record<string, string> = {
    'x-auth-token': `bearer ${token}`,
    cookie: `XSRF-TOKEN=${XSRF}`,
    'x-xsrf-token': XSRF,
  };
  if (key !== undefined) headers['idempotency-key'] = key;
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/bought_products/create',
    headers,
    payload: body,
  });
  return { status: res.statusCode, body: res.json() };
}

describe('bought_products/create with an Idempotency-Key', () => {
  it('answers the same key with the same body with the first sale (same status and body), recording one', async () => {
    const { body } = await opening();
    const key = randomUUID();
    const before = await saleCount();
    const first = await create(body, key);
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('Sale recorded. Complete the account opening in the new tab.');
    expect(first.body.result.status).toBe('PENDING');
    const again = await create(body, key);
    expect(again).toEqual(first);
    expect(await saleCount()).toBe(before + 1);
    // The first answer stays the answer, even once the sale has moved on.
    await deliver(ctx.app, {
      event: 'account.opened',
      utmCode: body.utmCode,
      merchantCode: body.merchantCode,
    });
    expect(await create(body, key)).toEqual(first);
  });

  it('refuses the same key with another body (409) and records nothing', async () => {
    const a = await opening();
    const b = await opening();
    const key = randomUUID();
    expect((await create(a.body, key)).status).toBe(200);
    const before = await saleCount();
    const other = await create(b.body, key);
    expect(other.status).toBe(409);
    expect(other.body).toEqual({
      message: 'This Idempotency-Key was already used for a different sale: use a new key for a new sale',
    });
    expect(await saleCount()).toBe(before);
    // The other sale under its own key is recorded.
    expect((await create(b.body, randomUUID())).status).toBe(200);
  });

  it('keeps keys per caller, and keeps no key for a refused request, so its retry is judged again', async () => {
    const key = randomUUID();
    const mine = await opening(retailer1, ids['9400000002']);
    const theirs = await opening(retailer2, ids['9400000004']);
    const wrong = await create({ ...mine.body, merchantCode: 'SOMEONE-ELSE' }, key);
    expect(wrong.status).toBe(409);
    expect(wrong.body.message).toBe("merchantCode does not match the partner's answer for this utmCode");
    const right = await create(mine.body, key);
    expect(right.status).toBe(200);
    const other = await create(theirs.body, key, retailer2);
    expect(other.status).toBe(200);
    expect(other.body.result._id).not.toBe(right.body.result._id);
  });

  it('refuses a malformed key with 400', async () => {
    const { body } = await opening();
    for (const key of ['', 'a'.repeat(201), 'with space', 'ключ']) {
      const res = await create(body, key);
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body).toEqual({
        message: 'The Idempotency-Key header must be 1 to 200 visible characters',
        errors: [
          { msg: 'The Idempotency-Key header must be 1 to 200 visible characters', param: 'Idempotency-Key' },
        ],
      });
    }
    expect((await create(body, 'a'.repeat(200))).status).toBe(200);
  });

  it('without the header behaves as before: a second create of the same opening is a 409', async () => {
    const { body } = await opening();
    expect((await create(body)).status).toBe(200);
    const again = await create(body);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This utmCode has already been used');
  });

  it('makes exactly one sale of 10 simultaneous creates with one key, all answered with it', async () => {
    const { body } = await opening();
    const key = randomUUID();
    const before = await saleCount();
    const answers = await Promise.all(Array.from({ length: 10 }, () => create(body, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(await saleCount()).toBe(before + 1);
    const kept = await ctx.database.pool.query(
      'select count(*) as n from bought_products where utm_code = $1',
      [body.utmCode],
    );
    expect(Number(kept.rows[0].n)).toBe(1);
  });
});

describe('reopening a pending sale: GET bought_products/opening/:id', () => {
  const reopen = (id: string, token?: string) =>
    call(ctx.app, 'GET', `bought_products/opening/${id}`, token ? { token } : {});

  it('answers the partner’s link to the person who recorded the sale and to staff', async () => {
    const { url, recorded } = await sell(ctx.app, retailer1, {
      customerId: ids['9400000003'],
      productId: savingId,
    });
    const id = recorded.body.result._id;
    for (const token of [retailer1, admin, employee]) {
      const res = await reopen(id, token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: { url } });
    }
  });

  it('answers 404 to anyone else and for no such sale, 400 for a malformed id, 401/403 by role', async () => {
    // retailer2's own customer, sold by an employee: not retailer2's recording.
    const byStaff = await sell(ctx.app, employee, { customerId: ids['9400000004'], productId: savingId });
    const mine = await sell(ctx.app, retailer1, { customerId: ids['9400000001'], productId: savingId });
    for (const [id, token] of [
      [mine.recorded.body.result._id, retailer2],
      [byStaff.recorded.body.result._id, retailer2],
      ['00000000-0000-4000-8000-000000000000', admin],
    ]) {
      const res = await reopen(id, token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Sale not found' });
    }
    const bad = await reopen('nope', admin);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ msg: 'Invalid id', param: 'id' }]);
    const tier = await reopen(mine.recorded.body.result._id, distributor);
    expect(tier.status).toBe(403);
    expect(tier.body.message).toBe('You do not have permission to do this');
    const anon = await reopen(mine.recorded.body.result._id);
    expect(anon.status).toBe(401);
    expect(anon.body.message).toBe('Authentication required');
  });

  it('refuses a sale that is not PENDING with 409', async () => {
    const confirmed = await sell(ctx.app, retailer1, { customerId: ids['9400000002'], productId: savingId });
    await deliver(ctx.app, {
      event: 'account.opened',
      utmCode: confirmed.utmCode,
      merchantCode: confirmed.merchantCode,
    });
    const failed = await sell(ctx.app, retailer1, { customerId: ids['9400000002'], productId: savingId });
    await deliver(ctx.app, {
      event: 'account.failed',
      utmCode: failed.utmCode,
      merchantCode: failed.merchantCode,
    });
    for (const [sale, status] of [
      [confirmed, 'CONFIRMED'],
      [failed, 'FAILED'],
    ] as const) {
      const res = await reopen(sale.recorded.body.result._id, retailer1);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: `This sale is ${status}: only a pending sale can be reopened` });
    }
  });

  it('refuses a pending sale whose link was not kept (recorded before links were) with 409', async () => {
    const { utmCode, recorded } = await sell(ctx.app, retailer1, {
      customerId: ids['9400000001'],
      productId: savingId,
    });
    await ctx.database.pool.query('update account_openings set url = null where utm_code = $1', [utmCode]);
    const res = await reopen(recorded.body.result._id, retailer1);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      message: "The partner's link for this sale was not kept: record a new sale through Select Product",
    });
  });
});

describe('the OpenAPI document', () => {
  it('documents the Idempotency-Key header of bought_products/create and the reopening call', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = res.json() as {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; in: string; required?: boolean }[] }>
      >;
    };
    const create = doc.paths['/api/v1/bought_products/create'].post;
    expect(create.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'idempotency-key', in: 'header', required: false }),
      ]),
    );
    const reopen = doc.paths['/api/v1/bought_products/opening/{id}'].get;
    expect(reopen.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'path', required: true })]),
    );
  });
});
