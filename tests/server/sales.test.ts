import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext } from './helpers';
import { clickSandbox, deliver, idsByMobile, sell } from './selling';

let ctx: TestContext;
let admin: string;
let employee: string;
let retailer1: string;
let retailer2: string;
let distributor1: string;
let ids: Record<string, string>;
let products: Record<string, { _id: string; urlParams: { data: string } }>;

const MISSING = '00000000-0000-4000-8000-000000000000';

const saleCount = async () =>
  (await call(ctx.app, 'GET', 'bought_products/fetch', { token: admin })).body.result.totalCounts as number;

const fetchSale = async (id: string, token = admin) =>
  (await call(ctx.app, 'GET', 'bought_products/fetch', { token, query: { _id: id } })).body.result
    .boughtProducts[0];

beforeAll(async () => {
  ctx = await makeTestContext();
  // The sandbox partner is a real HTTP endpoint: the server must listen for it to be reached.
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  employee = (await login(ctx.app, '9000000001', DEMO_PASSWORD)).token;
  retailer1 = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
  retailer2 = (await login(ctx.app, '9300000002', DEMO_PASSWORD)).token;
  distributor1 = (await login(ctx.app, '9200000001', DEMO_PASSWORD)).token;
  ids = await idsByMobile(ctx.app, admin);
  ids.admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).user._id;
  const list = await call(ctx.app, 'GET', 'products/fetch', { token: admin, query: { limit: '100' } });
  products = Object.fromEntries(list.body.result.products.map((p: { name: string }) => [p.name, p]));
});
afterAll(() => ctx.close());

describe('Select Product: a retailer sells to its own customer', () => {
  it('opens a saving account through the sandbox partner and records a PENDING sale with the frozen split', async () => {
    const before = await saleCount();
    const { url, utmCode, merchantCode, recorded } = await sell(ctx.app, retailer1, {
      customerId: ids['9400000001'],
      productId: products['Saving Account']._id,
    });
    // The link points where the panel's request came to (app.inject: localhost:80), not the loopback address.
    // It carries the opening's key (128 bits, base64url) before the utmCode, which stays after the last '='.
    expect(url).toMatch(/^http:\/\/localhost:80\/sandbox\/open\?key=[\w-]{22}&utmCode=SBX[0-9A-F]{16}$/);
    expect(merchantCode).toMatch(/^SANDBOX-/);
    expect(recorded.status).toBe(200);
    expect(recorded.body.message).toBe('Sale recorded. Complete the account opening in the new tab.');
    const sale = recorded.body.result;
    expect(sale).toMatchObject({
      status: 'PENDING',
      utmCode,
      merchantCode,
      accountType: 'PAYUSPRINT-SAVING',
      amount: 500,
      customerId: { _id: ids['9400000001'], name: 'Ramesh Kumar' },
      retailerId: { _id: ids['9300000001'], name: 'Ganesh Mobile Store' },
      productId: { name: 'Saving Account', providerId: { name: 'PayU Sprint Bank' } },
      confirmedAt: null,
    });
    // ₹500 at 40/15/15/20/10.
    expect(sale.split).toEqual([
      { tier: 'ADMIN', percent: 40, amount: 200, user: { _id: ids.admin, name: 'Administrator' } },
      {
        tier: 'MASTER_DISTRIBUTOR',
        percent: 15,
        amount: 75,
        user: { _id: ids['9100000001'], name: 'Suresh Traders' },
      },
      {
        tier: 'DISTRIBUTOR',
        percent: 15,
        amount: 75,
        user: { _id: ids['9200000001'], name: 'Jaipur Digital Seva' },
      },
      {
        tier: 'RETAILER',
        percent: 20,
        amount: 100,
        user: { _id: ids['9300000001'], name: 'Ganesh Mobile Store' },
      },
      { tier: 'CUSTOMER', percent: 10, amount: 50, user: { _id: ids['9400000001'], name: 'Ramesh Kumar' } },
    ]);
    expect(await saleCount()).toBe(before + 1);
  });

  it('shows the sandbox page, and its "Account opened" button confirms the sale over HTTP into five clearing balances', async () => {
    const { url, utmCode, key, recorded } = await sell(ctx.app, retailer1, {
      customerId: ids['9400000002'],
      productId: products['Saving Account']._id,
    });
    const page = await ctx.app.inject({ method: 'GET', url: new URL(url).pathname + new URL(url).search });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Sunita Devi');
    expect(page.body).toContain('Saving Account');
    expect(page.body).toContain(utmCode);
    expect(page.body).toContain('>Account opened</button>');
    expect(page.body).toContain('>Abandon</button>');

    const before = await call(ctx.app, 'GET', 'wallet/fetch', { token: retailer1 });
    // The browser posts the page's form; the sandbox then calls Tierdesk's callback over real HTTP.
    const clicked = await clickSandbox(ctx.app, { utmCode, key }, 'opened');
    expect(clicked.statusCode).toBe(303);
    expect(clicked.headers.location).toBe(`/sandbox/open?key=${key}&utmCode=${utmCode}`);
    const after = await ctx.app.inject({ method: 'GET', url: clicked.headers.location as string });
    expect(after.body).toContain('OPENED');
    expect(after.body).toContain('Tierdesk answered the callback with HTTP 200.');
    expect(after.body).not.toContain('>Account opened</button>');

    const sale = await fetchSale(recorded.body.result._id);
    expect(sale.status).toBe('CONFIRMED');
    expect(sale.confirmedAt).not.toBeNull();
    type Posting = {
      tier: string;
      amount: number;
      transactionType: string;
      status: string;
      userId: { _id: string };
    };
    const byTier = (rows: Posting[]) => [...rows].sort((a, b) => a.tier.localeCompare(b.tier));
    expect(
      byTier(sale.postings).map(
        (p: {
          tier: string;
          amount: number;
          transactionType: string;
          status: string;
          userId: { _id: string };
        }) => [p.tier, p.amount, p.transactionType, p.status, p.userId._id],
      ),
    ).toEqual([
      ['ADMIN', 200, 'CREDIT', 'CLEARING', ids.admin],
      ['CUSTOMER', 50, 'CREDIT', 'CLEARING', ids['9400000002']],
      ['DISTRIBUTOR', 75, 'CREDIT', 'CLEARING', ids['9200000001']],
      ['MASTER_DISTRIBUTOR', 75, 'CREDIT', 'CLEARING', ids['9100000001']],
      ['RETAILER', 100, 'CREDIT', 'CLEARING', ids['9300000001']],
    ]);
    const wallet = await call(ctx.app, 'GET', 'wallet/fetch', { token: retailer1 });
    expect(wallet.body.result.wallet.clearingBalance).toBe(before.body.result.wallet.clearingBalance + 100);
    expect(wallet.body.result.wallet.balance).toBe(before.body.result.wallet.balance);
    // The list columns show the real wallet.
    const row = await call(ctx.app, 'GET', 'account/fetch', {
      token: admin,
      query: { _id: ids['9300000001'] },
    });
    expect(row.body.result.users[0].wallet).toEqual(wallet.body.result.wallet);
  });

  it('answers the sandbox page a clear 404 for an unknown code and 400 for text the database refuses', async () => {
    const unknown = await ctx.app.inject({ method: 'GET', url: '/sandbox/open?key=abc&utmCode=NOPE' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'No account opening in the sandbox matches this link' });
    const nul = await ctx.app.inject({ method: 'GET', url: '/sandbox/open?key=abc&utmCode=%00' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().errors[0].param).toBe('utmCode');
  });

  it('"Abandon" fails the sale and posts nothing', async () => {
    const { utmCode, key, recorded } = await sell(ctx.app, retailer1, {
      customerId: ids['9400000003'],
      productId: products['Saving Account']._id,
    });
    const clicked = await clickSandbox(ctx.app, { utmCode, key }, 'abandon');
    expect(clicked.statusCode).toBe(303);
    const sale = await fetchSale(recorded.body.result._id);
    expect(sale.status).toBe('FAILED');
    expect(sale.postings).toEqual([]);
  });

  it('opens current and sole-proprietor accounts through payusprint/current_account, split by largest remainder', async () => {
    const { recorded } = await sell(ctx.app, retailer1, {
      customerId: ids['9400000001'],
      productId: products['Current Account']._id,
    });
    expect(recorded.status).toBe(200);
    expect(recorded.body.result.accountType).toBe('PAYUSPRINT-CURRENT');
    // ₹750.50 at 33.33/16.67/15/25/10: 250.14 + 125.11 + 112.58 + 187.62 + 75.05 = 750.50 exactly.
    expect(recorded.body.result.split.map((s: { amount: number }) => s.amount)).toEqual([
      250.14, 125.11, 112.58, 187.62, 75.05,
    ]);
    const sole = await sell(ctx.app, retailer1, {
      customerId: ids['9400000001'],
      productId: products['Sole Proprietor Account']._id,
    });
    expect(sole.recorded.body.result.accountType).toBe('PAYUSPRINT-SOLE-PROPRIETOR');
  });
});

describe('who sells: the server decides', () => {
  it("ignores the body's retailerId: a retailer is always its own sale's retailer", async () => {
    const opened = await call(ctx.app, 'POST', 'payusprint/saving_account', {
      token: retailer1,
      body: {
        accountType: 'PAYUSPRINT-SAVING',
        productId: products['Saving Account']._id,
        customerId: ids['9400000001'],
      },
    });
    const url = opened.body.result.result.data as string;
    const res = await call(ctx.app, 'POST', 'bought_products/create', {
      token: retailer1,
      body: {
        customerId: ids['9400000001'],
        retailerId: ids['9300000002'],
        productId: products['Saving Account']._id,
        utmCode: url.slice(url.lastIndexOf('=') + 1),
        merchantCode: opened.body.result.merchantCode,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.result.retailerId._id).toBe(ids['9300000001']);
  });

  it("refuses a retailer selling to another retailer's customer, before and after the partner, recording nothing", async () => {
    const before = await saleCount();
    const opening = await call(ctx.app, 'POST', 'payusprint/saving_account', {
      token: retailer2,
      body: {
        accountType: 'PAYUSPRINT-SAVING',
        productId: products['Saving Account']._id,
        customerId: ids['9400000001'],
      },
    });
    expect(opening.status).toBe(404);
    expect(opening.body.message).toBe('Customer not found');
    // Even with a link opened for no customer, the sale is refused.
    const anyLink = await call(ctx.app, 'POST', 'payusprint/saving_account', {
      token: retailer2,
      body: { productId: products['Saving Account']._id },
    });
    const url = anyLink.body.result.result.data as string;
    const res = await call(ctx.app, 'POST', 'bought_products/create', {
      token: retailer2,
      body: {
        customerId: ids['9400000001'],
        productId: products['Saving Account']._id,
        utmCode: url.slice(url.lastIndexOf('=') + 1),
        merchantCode: anyLink.body.result.merchantCode,
      },
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Customer not found');
    expect(await saleCount()).toBe(before);
  });

  it("gives staff sales the customer's retailer, and a customer without one sends the missing tiers' shares to admin", async () => {
    const staffSale = await sell(ctx.app, employee, {
      customerId: ids['9400000004'],
      productId: products['Saving Account']._id,
    });
    expect(staffSale.recorded.status).toBe(200);
    expect(staffSale.recorded.body.result.retailerId._id).toBe(ids['9300000002']);
    expect(staffSale.recorded.body.result.soldBy.name).toBe('Anita Sharma');

    const someone = await call(ctx.app, 'GET', 'account/fetch', {
      token: admin,
      query: { _id: ids['9400000001'] },
    });
    const orphan = await call(ctx.app, 'POST', 'account/create', {
      token: admin,
      body: {
        type: 1,
        name: 'Walk In Customer',
        email: 'walkin@example.com',
        mobile: '9499999999',
        userName: 'walkin99',
        districtId: someone.body.result.users[0].districtId,
        tehsilId: someone.body.result.users[0].tehsilId,
        customer: { aadharId: '234567890124', panId: 'ABCDE1234F' },
      },
    });
    expect(orphan.status).toBe(200);
    const { recorded } = await sell(ctx.app, admin, {
      customerId: orphan.body.result._id,
      productId: products['Saving Account']._id,
    });
    expect(recorded.status).toBe(200);
    expect(recorded.body.result.retailerId).toBeNull();
    const receivers = recorded.body.result.split.map((s: { tier: string; user: { _id: string } }) => [
      s.tier,
      s.user._id,
    ]);
    expect(receivers).toEqual([
      ['ADMIN', ids.admin],
      ['MASTER_DISTRIBUTOR', ids.admin],
      ['DISTRIBUTOR', ids.admin],
      ['RETAILER', ids.admin],
      ['CUSTOMER', orphan.body.result._id],
    ]);
  });

  it('refuses tier users other than retailers and anonymous callers', async () => {
    for (const path of [
      'payusprint/saving_account',
      'payusprint/current_account',
      'bought_products/create',
    ]) {
      const res = await call(ctx.app, 'POST', path, { token: distributor1, body: {} });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('You do not have permission to do this');
      const anon = await call(ctx.app, 'POST', path, { body: {} });
      expect(anon.status).toBe(401);
      expect(anon.body.message).toBe('Authentication required');
    }
    const list = await call(ctx.app, 'GET', 'bought_products/fetch', { token: distributor1 });
    expect(list.status).toBe(403);
  });
});

describe('refusals record nothing', () => {
  const open = async (token = retailer1, body: Record<string, unknown> = {}) => {
    const res = await call(ctx.app, 'POST', 'payusprint/saving_account', {
      token,
      body: { accountType: 'PAYUSPRINT-SAVING', productId: products['Saving Account']._id, ...body },
    });
    const url = res.body.result.result.data as string;
    return {
      utmCode: url.slice(url.lastIndexOf('=') + 1),
      merchantCode: res.body.result.merchantCode as string,
    };
  };
  const create = (body: Record<string, unknown>, token = retailer1) =>
    call(ctx.app, 'POST', 'bought_products/create', { token, body });
  const base = () => ({ customerId: ids['9400000001'], productId: products['Saving Account']._id });

  it('answers each refusal with its status and message', async () => {
    const before = await saleCount();
    const o = await open(retailer1, { customerId: ids['9400000001'] });

    const missing = await create({});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Invalid data!');
    expect(missing.body.errors).toEqual(
      expect.arrayContaining([
        { msg: 'This field is required', param: 'customerId' },
        { msg: 'This field is required', param: 'productId' },
        { msg: 'This field is required', param: 'utmCode' },
        { msg: 'This field is required', param: 'merchantCode' },
      ]),
    );
    const badId = await create({ ...o, ...base(), customerId: 'nope' });
    expect(badId.status).toBe(400);
    expect(badId.body.errors).toEqual([{ msg: 'Invalid customer id', param: 'customerId' }]);

    const noProduct = await create({ ...o, ...base(), productId: MISSING });
    expect(noProduct.status).toBe(404);
    expect(noProduct.body.message).toBe('Product not found');
    const noCustomer = await create({ ...o, ...base(), customerId: MISSING });
    expect(noCustomer.status).toBe(404);
    expect(noCustomer.body.message).toBe('Customer not found');
    const retailerAsCustomer = await create({ ...o, ...base(), customerId: ids['9300000001'] }, admin);
    expect(retailerAsCustomer.status).toBe(404);
    expect(retailerAsCustomer.body.message).toBe('Customer not found');

    const invented = await create({ ...base(), utmCode: 'MADEUP123', merchantCode: o.merchantCode });
    expect(invented.status).toBe(400);
    expect(invented.body.errors).toEqual([
      { msg: 'Unknown utmCode: open the account through Select Product first', param: 'utmCode' },
    ]);
    const someoneElses = await create({ ...o, ...base() }, employee);
    expect(someoneElses.status).toBe(400);
    expect(someoneElses.body.message).toBe('Unknown utmCode: open the account through Select Product first');

    const wrongMerchant = await create({ ...base(), utmCode: o.utmCode, merchantCode: 'SOMEONE-ELSE' });
    expect(wrongMerchant.status).toBe(409);
    expect(wrongMerchant.body.message).toBe(
      "merchantCode does not match the partner's answer for this utmCode",
    );
    const otherCustomer = await create({ ...o, ...base(), customerId: ids['9400000002'] });
    expect(otherCustomer.status).toBe(409);
    expect(otherCustomer.body.message).toBe('This account opening was started for another customer');
    const otherProduct = await create({ ...o, ...base(), productId: products['Current Account']._id });
    expect(otherProduct.status).toBe(409);
    expect(otherProduct.body.message).toBe(
      'This account opening is for Saving Account; it cannot be recorded as Current Account',
    );
    expect(await saleCount()).toBe(before);

    expect((await create({ ...o, ...base() })).status).toBe(200);
    const again = await create({ ...o, ...base() });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This utmCode has already been used');
    expect(await saleCount()).toBe(before + 1);
  });

  it('refuses a product of the other account family and bad account types at payusprint', async () => {
    const wrongCall = await call(ctx.app, 'POST', 'payusprint/saving_account', {
      token: retailer1,
      body: { accountType: 'PAYUSPRINT-SAVING', productId: products['Current Account']._id },
    });
    expect(wrongCall.status).toBe(400);
    expect(wrongCall.body.message).toBe('This product opens PAYUSPRINT-CURRENT accounts');
    const badType = await call(ctx.app, 'POST', 'payusprint/current_account', {
      token: retailer1,
      body: { accountType: 'PAYUSPRINT-SAVING', productId: products['Current Account']._id },
    });
    expect(badType.status).toBe(400);
    expect(badType.body.errors).toEqual([
      { msg: 'Account type must be PAYUSPRINT-CURRENT or PAYUSPRINT-SOLE-PROPRIETOR', param: 'accountType' },
    ]);
    const noProduct = await call(ctx.app, 'POST', 'payusprint/current_account', {
      token: retailer1,
      body: { accountType: 'PAYUSPRINT-CURRENT', productId: MISSING },
    });
    expect(noProduct.status).toBe(404);
    expect(noProduct.body.message).toBe('Product not found');
  });
});

describe('the sales list', () => {
  it("scopes a retailer to its own customers' sales; staff see every sale", async () => {
    await sell(ctx.app, retailer2, {
      customerId: ids['9400000005'],
      productId: products['Saving Account']._id,
    });
    const mine = await call(ctx.app, 'GET', 'bought_products/fetch', {
      token: retailer2,
      query: { limit: '100' },
    });
    expect(mine.status).toBe(200);
    expect(mine.body.result.boughtProducts.length).toBeGreaterThan(0);
    for (const sale of mine.body.result.boughtProducts) expect(sale.retailerId._id).toBe(ids['9300000002']);
    const all = await call(ctx.app, 'GET', 'bought_products/fetch', {
      token: employee,
      query: { limit: '100' },
    });
    expect(all.body.result.totalCounts).toBeGreaterThan(mine.body.result.totalCounts);
    // A forged filter cannot widen it, and another retailer's sale by id is not found.
    const forged = await call(ctx.app, 'GET', 'bought_products/fetch', {
      token: retailer2,
      query: { retailerId: ids['9300000001'] },
    });
    expect(forged.body.result.boughtProducts).toEqual([]);
    const theirs = all.body.result.boughtProducts.find(
      (s: { retailerId: { _id: string } | null }) => s.retailerId?._id === ids['9300000001'],
    );
    const byId = await call(ctx.app, 'GET', 'bought_products/fetch', {
      token: retailer2,
      query: { _id: theirs._id },
    });
    expect(byId.status).toBe(404);
    expect(byId.body.message).toBe('Sale not found');
  });

  it('filters by status and finds a sale by its utmCode', async () => {
    const { utmCode } = await sell(ctx.app, retailer1, {
      customerId: ids['9400000002'],
      productId: products['Saving Account']._id,
    });
    const found = await call(ctx.app, 'GET', 'bought_products/fetch', {
      token: admin,
      query: { searchText: utmCode.slice(3, 12) },
    });
    expect(found.body.result.boughtProducts.map((s: { utmCode: string }) => s.utmCode)).toEqual([utmCode]);
    const failed = await call(ctx.app, 'GET', 'bought_products/fetch', {
      token: admin,
      query: { status: 'FAILED' },
    });
    expect(failed.body.result.boughtProducts.every((s: { status: string }) => s.status === 'FAILED')).toBe(
      true,
    );
    const bad = await call(ctx.app, 'GET', 'bought_products/fetch', {
      token: admin,
      query: { status: 'LOST' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { msg: 'status must be one of PENDING, CONFIRMED, FAILED, REVERSED', param: 'status' },
    ]);
  });
});

describe('frozen at the moment of sale', () => {
  it('keeps the amount and split of a recorded sale when the product is edited, and posts the frozen shares', async () => {
    const { utmCode, key, recorded } = await sell(ctx.app, retailer1, {
      customerId: ids['9400000003'],
      productId: products['Sole Proprietor Account']._id,
    });
    const product = (
      await call(ctx.app, 'GET', 'products/fetch', {
        token: admin,
        query: { productId: products['Sole Proprietor Account']._id },
      })
    ).body.result.products[0];
    const edited = await call(ctx.app, 'POST', `products/update/${product._id}`, {
      token: admin,
      body: {
        ...product,
        providerId: product.providerId._id,
        amount: 2000,
        adminCommission: 100,
        masterDistributorCommission: 0,
        distributorCommission: 0,
        retailerCommission: 0,
        customerCommission: 0,
      },
    });
    expect(edited.status).toBe(200);
    const clicked = await clickSandbox(ctx.app, { utmCode, key }, 'opened');
    expect(clicked.statusCode).toBe(303);
    const sale = await fetchSale(recorded.body.result._id);
    expect(sale.status).toBe('CONFIRMED');
    expect(sale.amount).toBe(1000);
    expect(sale.split.map((s: { amount: number }) => s.amount)).toEqual([300, 200, 200, 250, 50]);
    expect(sale.postings.reduce((sum: number, p: { amount: number }) => sum + p.amount, 0)).toBe(1000);
  });
});

describe('an opening is bound to one product (issue 41, item 1)', () => {
  type Product = { _id: string; name: string; providerId: { _id: string } } & Record<string, unknown>;
  const productNamed = async (name: string): Promise<Product> =>
    (await call(ctx.app, 'GET', 'products/fetch', { token: admin, query: { productId: products[name]._id } }))
      .body.result.products[0];
  /** A new product like the given one (its own name), so editing it moves no other test's sales. */
  const productLike = async (name: string, newName: string): Promise<Product> => {
    const like = await productNamed(name);
    const res = await call(ctx.app, 'POST', 'products/create', {
      token: admin,
      body: { ...like, providerId: like.providerId._id, name: newName },
    });
    expect(res.status).toBe(200);
    return res.body.result;
  };
  const edit = async (product: Product, changes: Record<string, unknown>) => {
    const res = await call(ctx.app, 'POST', `products/update/${product._id}`, {
      token: admin,
      body: { ...product, providerId: product.providerId._id, ...changes },
    });
    expect(res.status).toBe(200);
  };
  const open = (path: string, body: Record<string, unknown>, token = retailer1) =>
    call(ctx.app, 'POST', `payusprint/${path}`, { token, body });
  const linkOf = (res: { body: { result: { result: { data: string }; merchantCode: string } } }) => {
    const url = res.body.result.result.data;
    return { utmCode: url.slice(url.lastIndexOf('=') + 1), merchantCode: res.body.result.merchantCode };
  };
  const openingCount = async () =>
    Number((await ctx.database.pool.query('select count(*) as n from account_openings')).rows[0].n);

  it('refuses an opening without a productId (400), for either call, and asks the partner nothing', async () => {
    const before = await openingCount();
    for (const [path, accountType] of [
      ['saving_account', 'PAYUSPRINT-SAVING'],
      ['current_account', 'PAYUSPRINT-SOLE-PROPRIETOR'],
    ]) {
      for (const body of [
        {},
        { accountType },
        { accountType, productId: '' },
        { accountType, productId: null },
      ]) {
        const res = await open(path, { ...body, customerId: ids['9400000001'] });
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect(res.body.errors).toEqual([
          { msg: 'Choose the product this account opening is for', param: 'productId' },
        ]);
      }
    }
    expect(await openingCount()).toBe(before);
  });

  it('refuses a product of another account type than asked, and takes the product’s type when none is named', async () => {
    const mismatch = await open('current_account', {
      accountType: 'PAYUSPRINT-CURRENT',
      productId: products['Sole Proprietor Account']._id,
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors).toEqual([
      { msg: 'This product opens PAYUSPRINT-SOLE-PROPRIETOR accounts', param: 'accountType' },
    ]);
    const savingOnCurrent = await open('current_account', { productId: products['Saving Account']._id });
    expect(savingOnCurrent.status).toBe(400);
    expect(savingOnCurrent.body.message).toBe('This product opens PAYUSPRINT-SAVING accounts');

    const implied = await open('current_account', {
      productId: products['Sole Proprietor Account']._id,
      customerId: ids['9400000002'],
    });
    expect(implied.status).toBe(200);
    const sale = await call(ctx.app, 'POST', 'bought_products/create', {
      token: retailer1,
      body: {
        customerId: ids['9400000002'],
        productId: products['Sole Proprietor Account']._id,
        ...linkOf(implied),
      },
    });
    expect(sale.status).toBe(200);
    expect(sale.body.result.accountType).toBe('PAYUSPRINT-SOLE-PROPRIETOR');
  });

  it('refuses to record a PAYUSPRINT-SAVING opening as the dearer Sole Proprietor product (409 naming both)', async () => {
    const before = await saleCount();
    const opening = await open('saving_account', {
      accountType: 'PAYUSPRINT-SAVING',
      productId: products['Saving Account']._id,
      customerId: ids['9400000001'],
    });
    expect(opening.status).toBe(200);
    const link = linkOf(opening);
    const dearer = await call(ctx.app, 'POST', 'bought_products/create', {
      token: retailer1,
      body: {
        customerId: ids['9400000001'],
        productId: products['Sole Proprietor Account']._id,
        ...link,
      },
    });
    expect(dearer.status).toBe(409);
    expect(dearer.body.message).toBe(
      'This account opening is for Saving Account; it cannot be recorded as Sole Proprietor Account',
    );
    expect(dearer.body.errors).toEqual([{ msg: dearer.body.message, param: 'productId' }]);
    expect(await saleCount()).toBe(before);
    // Recorded as the product it was opened for, it is the 500 rupee sale.
    const right = await call(ctx.app, 'POST', 'bought_products/create', {
      token: retailer1,
      body: { customerId: ids['9400000001'], productId: products['Saving Account']._id, ...link },
    });
    expect(right.status).toBe(200);
    expect(right.body.result.amount).toBe(500);
  });

  it('refuses an opening recorded before the binding, which names no product (409)', async () => {
    const opening = await open('saving_account', {
      productId: products['Saving Account']._id,
      customerId: ids['9400000003'],
    });
    const link = linkOf(opening);
    await ctx.database.pool.query(
      `update account_openings set product_id = null, amount_paise = null, admin_commission = null,
         master_distributor_commission = null, distributor_commission = null, retailer_commission = null,
         customer_commission = null where utm_code = $1`,
      [link.utmCode],
    );
    const res = await call(ctx.app, 'POST', 'bought_products/create', {
      token: retailer1,
      body: { customerId: ids['9400000003'], productId: products['Saving Account']._id, ...link },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'This account opening names no product: open the account again through Select Product',
    );
  });

  it('splits the sale, and the partner’s account.opened credits, as recorded at opening, not as the product is now', async () => {
    const product = await productLike('Saving Account', 'Bound Saving Account');
    // retailer2's own customer; the product is ₹500 at 40/15/15/20/10 when the account is opened.
    const opening = await open(
      'saving_account',
      { productId: product._id, customerId: ids['9400000005'] },
      retailer2,
    );
    expect(opening.status).toBe(200);
    const link = linkOf(opening);
    // Between the opening and the sale the product becomes dearer, all of it to the retailer.
    await edit(product, {
      amount: 1000,
      adminCommission: 0,
      masterDistributorCommission: 0,
      distributorCommission: 0,
      retailerCommission: 100,
      customerCommission: 0,
    });
    const walletBefore = (await call(ctx.app, 'GET', 'wallet/fetch', { token: retailer2 })).body.result
      .wallet;
    const recorded = await call(ctx.app, 'POST', 'bought_products/create', {
      token: retailer2,
      body: { customerId: ids['9400000005'], productId: product._id, ...link },
    });
    expect(recorded.status).toBe(200);
    expect(recorded.body.result.amount).toBe(500);
    const split = (sale: { split: { percent: number; amount: number }[] }) =>
      sale.split.map((s) => [s.percent, s.amount]);
    const atOpening = [
      [40, 200],
      [15, 75],
      [15, 75],
      [20, 100],
      [10, 50],
    ];
    expect(split(recorded.body.result)).toEqual(atOpening);

    const confirmed = await deliver(ctx.app, { event: 'account.opened', ...link });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.result.status).toBe('CONFIRMED');
    const sale = await fetchSale(recorded.body.result._id);
    expect(split(sale)).toEqual(atOpening);
    const byTier = Object.fromEntries(
      sale.postings.map((p: { tier: string; amount: number }) => [p.tier, p.amount]),
    );
    expect(byTier).toEqual({
      ADMIN: 200,
      MASTER_DISTRIBUTOR: 75,
      DISTRIBUTOR: 75,
      RETAILER: 100,
      CUSTOMER: 50,
    });
    const walletAfter = (await call(ctx.app, 'GET', 'wallet/fetch', { token: retailer2 })).body.result.wallet;
    expect(walletAfter.clearingBalance).toBe(walletBefore.clearingBalance + 100);
    const report = await call(ctx.app, 'GET', 'ledger/reconcile', { token: admin });
    expect(report.body.result.breaks).toEqual([]);
    expect(report.body.result.ok).toBe(true);
  });

  it('reconcile reports a confirmed sale whose split is not the one its opening recorded, or not its percentages', async () => {
    const { utmCode, merchantCode, recorded } = await sell(ctx.app, retailer1, {
      customerId: ids['9400000002'],
      productId: products['Saving Account']._id,
    });
    expect((await deliver(ctx.app, { event: 'account.opened', utmCode, merchantCode })).status).toBe(200);
    const reconcile = async () =>
      (await call(ctx.app, 'GET', 'ledger/reconcile', { token: admin })).body.result;
    expect((await reconcile()).ok).toBe(true);
    // The opening said another split than the sale (as a sale recorded as a dearer product would be).
    await ctx.database.pool.query(
      'update account_openings set admin_commission = 3000, retailer_commission = 3000 where utm_code = $1',
      [utmCode],
    );
    const report = await reconcile();
    expect(report.ok).toBe(false);
    expect(report.breaks).toEqual([
      {
        check: 'sale-opening',
        detail: `sale ${recorded.body.result._id} is not the product, amount and split its account opening recorded`,
      },
    ]);
    // The sale says those percentages too, but its shares (and postings) are not those percentages of its amount.
    await ctx.database.pool.query(
      'update bought_products set admin_commission = 3000, retailer_commission = 3000 where utm_code = $1',
      [utmCode],
    );
    expect((await reconcile()).breaks).toEqual([
      {
        check: 'sale-split',
        detail: `sale ${recorded.body.result._id}: a share is not its percentage of the amount`,
      },
    ]);
    for (const table of ['account_openings', 'bought_products'])
      await ctx.database.pool.query(
        `update ${table} set admin_commission = 4000, retailer_commission = 2000 where utm_code = $1`,
        [utmCode],
      );
    expect((await reconcile()).ok).toBe(true);
  });
});
