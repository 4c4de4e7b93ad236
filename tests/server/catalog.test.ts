import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let admin: string;
let employee: string;
let retailer: string;
let providerId: string;
beforeAll(async () => {
  ctx = await makeTestContext();
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  employee = (await login(ctx.app, '9000000001', DEMO_PASSWORD)).token;
  retailer = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
  providerId = (
    await call(ctx.app, 'POST', 'providers/create', { token: admin, body: { name: 'Test Bank' } })
  ).body.result._id;
});
afterAll(async () => {
  await ctx?.close();
});

const post = (path: string, body: unknown, token = admin) => call(ctx.app, 'POST', path, { token, body });
const get = (path: string, query: Record<string, string> = {}, token = admin) =>
  call(ctx.app, 'GET', path, { token, query });
const MISSING = '00000000-0000-4000-8000-000000000000';

const product = (over: Record<string, unknown> = {}) => ({
  providerId,
  name: `Product ${Math.random().toString(36).slice(2, 8)}`,
  url: 'https://bank.example/open',
  amount: '250.50',
  adminCommission: 40,
  masterDistributorCommission: 15,
  distributorCommission: 15,
  retailerCommission: 20,
  customerCommission: 10,
  urlParams: { reqType: 'POST', data: 'PAYUSPRINT-CURRENT' },
  ...over,
});

describe('providers', () => {
  it('creates, searches, updates and refuses duplicates', async () => {
    const res = await post('providers/create', { name: 'Axis Sprint' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Provider Created Successfully!');
    const id = res.body.result._id;
    const list = await get('providers/fetch', { searchText: 'axis' });
    expect(list.body.result.providers.map((p: { name: string }) => p.name)).toEqual(['Axis Sprint']);
    expect(list.body.result.totalCounts).toBe(1);
    const dup = await post('providers/create', { name: 'AXIS SPRINT' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('A provider named "AXIS SPRINT" already exists');
    const updated = await post(`providers/update/${id}`, { name: 'Axis Sprint Bank' }, employee);
    expect(updated.status).toBe(200);
    expect(updated.body.message).toBe('Provider Updated Successfully!');
    const missing = await post(`providers/update/${MISSING}`, { name: 'Nope' });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Provider not found');
  });

  it('refuses a missing name, tier users and anonymous callers', async () => {
    const empty = await post('providers/create', { name: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ msg: 'Provider name is required!', param: 'name' }]);
    const tier = await post('providers/create', { name: 'Retail Bank' }, retailer);
    expect(tier.status).toBe(403);
    expect(tier.body.message).toBe('You do not have permission to do this');
    // A retailer reads the catalogue to sell (Select Product); other tier users do not.
    expect((await get('providers/fetch', {}, retailer)).status).toBe(200);
    expect((await get('products/fetch', {}, retailer)).status).toBe(200);
    const distributor = (await login(ctx.app, '9200000001', DEMO_PASSWORD)).token;
    const refused = await get('providers/fetch', {}, distributor);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You do not have permission to do this');
    expect((await get('products/fetch', {}, distributor)).status).toBe(403);
    const anon = await call(ctx.app, 'GET', 'providers/fetch');
    expect(anon.status).toBe(401);
  });
});

describe('products', () => {
  it('creates a product with the provider populated and the server message', async () => {
    const res = await post('products/create', product({ name: 'Zero Balance Account' }));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Product Created Successfully!');
    expect(res.body.result).toMatchObject({
      name: 'Zero Balance Account',
      providerId: { _id: providerId, name: 'Test Bank' },
      amount: 250.5,
      adminCommission: 40,
      customerCommission: 10,
      urlParams: { reqType: 'POST', data: 'PAYUSPRINT-CURRENT' },
    });
    const list = await get('products/fetch', { productId: res.body.result._id });
    expect(list.body.result.totalCounts).toBe(1);
    expect(list.body.result.products[0].providerId.name).toBe('Test Bank');
  });

  it('refuses commissions that do not sum to exactly 100', async () => {
    const res = await post('products/create', product({ customerCommission: 9 }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ msg: 'Total commission should be 100', param: 'commission' }]);
    const over = await post('products/create', product({ customerCommission: '10.01' }));
    expect(over.body.errors[0].msg).toBe('Total commission should be 100');
  });

  it('accepts splits that floating point would miss', async () => {
    const thirds = await post(
      'products/create',
      product({
        adminCommission: '33.33',
        masterDistributorCommission: '33.33',
        distributorCommission: '33.34',
        retailerCommission: 0,
        customerCommission: 0,
      }),
    );
    expect(thirds.status).toBe(200);
    // 10.1 + 20.2 + 30.3 + 39.4 is 99.99999999999999 in floating point, exactly 100 in decimals.
    const tenths = await post(
      'products/create',
      product({
        adminCommission: 10.1,
        masterDistributorCommission: 20.2,
        distributorCommission: 30.3,
        retailerCommission: 39.4,
        customerCommission: 0,
      }),
    );
    expect(tenths.status).toBe(200);
    expect(tenths.body.result.retailerCommission).toBe(39.4);
  });

  it('checks each commission: numeric, 0..100, at most 2 decimals', async () => {
    for (const bad of ['abc', -5, '100.01', '1.005', 101]) {
      const res = await post('products/create', product({ adminCommission: bad }));
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.errors).toEqual([
        {
          msg: 'Commission must be a number from 0 to 100 with at most 2 decimals',
          param: 'adminCommission',
        },
      ]);
    }
  });

  it('checks provider, name, url, amount, method and data identifier', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ providerId: MISSING }, 'providerId', 'Selected provider does not exist'],
      [{ providerId: '' }, 'providerId', 'This field is required'],
      [{ name: '' }, 'name', 'Product name is required!'],
      [{ url: '' }, 'url', 'This field is required'],
      [{ url: 'ftp://bank.example' }, 'url', 'URL must be a valid http:// or https:// address'],
      [{ url: 'javascript:alert(1)' }, 'url', 'URL must be a valid http:// or https:// address'],
      [{ amount: 0 }, 'amount', 'Amount must be greater than 0 with at most 2 decimals'],
      [{ amount: '12.345' }, 'amount', 'Amount must be greater than 0 with at most 2 decimals'],
      [{ amount: undefined }, 'amount', 'This field is required'],
      [{ urlParams: { reqType: 'PUT' } }, 'urlParams.reqType', 'Request method must be GET or POST'],
      [
        { urlParams: { reqType: 'GET', data: 'OTHER' } },
        'urlParams.data',
        'Request data identifier must be one of PAYUSPRINT-SAVING, PAYUSPRINT-CURRENT, PAYUSPRINT-SOLE-PROPRIETOR',
      ],
    ];
    for (const [over, param, msg] of cases) {
      const res = await post('products/create', product(over));
      expect(res.status, param).toBe(400);
      const error = res.body.errors?.[0] ?? { msg: res.body.message, param };
      expect(error, JSON.stringify(over)).toEqual({ msg, param });
    }
  });

  it('defaults the method to GET and the data identifier to the first one', async () => {
    const res = await post('products/create', product({ urlParams: undefined }));
    expect(res.status).toBe(200);
    expect(res.body.result.urlParams).toEqual({ reqType: 'GET', data: 'PAYUSPRINT-SAVING' });
  });

  it('refuses a duplicate name for the same provider', async () => {
    await post('products/create', product({ name: 'Gold Account' }));
    const dup = await post('products/create', product({ name: 'gold account' }));
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('A product named "gold account" already exists for this provider');
  });

  it('updates a product with the server message and refuses unknown ids and tier users', async () => {
    const id = (await post('products/create', product({ name: 'Silver Account' }))).body.result._id;
    const res = await post(
      `products/update/${id}`,
      product({ name: 'Silver Plus Account', amount: 99 }),
      employee,
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Product Updated Successfully!');
    expect(res.body.result).toMatchObject({ name: 'Silver Plus Account', amount: 99 });
    const missing = await post(`products/update/${MISSING}`, product());
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Product not found');
    expect((await post('products/create', product(), retailer)).status).toBe(403);
  });

  it('pages and searches products on the server', async () => {
    for (let i = 1; i <= 11; i++)
      await post('products/create', product({ name: `Paged Product ${String(i).padStart(2, '0')}` }));
    const first = await get('products/fetch', { searchText: 'paged PRODUCT', page: '1', limit: '10' });
    const second = await get('products/fetch', { searchText: 'paged PRODUCT', page: '2', limit: '10' });
    expect(first.body.result.totalCounts).toBe(11);
    expect(first.body.result.products).toHaveLength(10);
    expect(second.body.result.products).toHaveLength(1);
    // Newest first by default.
    expect(first.body.result.products[0].name).toBe('Paged Product 11');
  });

  it('lists the demo catalogue', async () => {
    const res = await get('products/fetch', { searchText: 'account', limit: '100' });
    const names = res.body.result.products.map((p: { name: string }) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['Saving Account', 'Current Account', 'Sole Proprietor Account']),
    );
  });
});
