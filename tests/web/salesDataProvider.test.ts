import { createDataProvider, UnreadableAnswerError } from '../../src/web/providers/dataProvider';
import type { HttpOptions, HttpResponse } from '../../src/web/providers/httpClient';
import { IDS, SALE_POSTINGS, wirePosting, wireSale } from './salesFixtures';

/** A fake httpClient, as in dataProvider.test.ts: records calls, answers from a function. */
const fakeHttp = (answer: (url: string, options: HttpOptions) => { result?: unknown; message?: string }) => {
  const calls: { url: string; options: HttpOptions }[] = [];
  const http = vi.fn(async (url: string, options: HttpOptions = {}) => {
    calls.push({ url, options });
    const json = answer(url, options);
    return { status: 200, headers: new Headers(), body: JSON.stringify(json), json } as HttpResponse<never>;
  });
  return { http: http as unknown as Parameters<typeof createDataProvider>[0], calls };
};
const body = (options: HttpOptions) => JSON.parse(String(options.body));
const list = { pagination: { page: 1, perPage: 10 }, sort: { field: 'createdAt', order: 'DESC' as const } };

const OPENING = (utmCode: string) => ({
  result: {
    result: { data: `https://partner.example/open?ref=a=b&utmCode=${utmCode}` },
    merchantCode: 'M-42',
  },
});

describe('dataProvider: selling', () => {
  it('a sale goes out with its Idempotency-Key and abort signal; the partner call with its signal', async () => {
    const { http, calls } = fakeHttp((url) =>
      url.includes('payusprint') ? OPENING('UTM-7') : { result: wireSale({ status: 'PENDING' }) },
    );
    const provider = createDataProvider(http);
    const controller = new AbortController();
    await provider.openAccount(
      'saving_account',
      { accountType: 'PAYUSPRINT-SAVING', productId: IDS.saving, customerId: IDS.customer },
      { signal: controller.signal },
    );
    expect(calls[0].options.signal).toBe(controller.signal);
    await provider.create('sales', {
      data: { customerId: IDS.customer, productId: IDS.saving, utmCode: 'UTM-7', merchantCode: 'M-42' },
      meta: { idempotencyKey: 'key-1', signal: controller.signal },
    });
    expect(calls[1].url).toBe('/api/v1/bought_products/create');
    expect(calls[1].options.headers).toEqual({ 'Idempotency-Key': 'key-1' });
    expect(calls[1].options.signal).toBe(controller.signal);
    // Without a key, no header.
    await provider.create('sales', { data: { customerId: IDS.customer } });
    expect(calls[2].options.headers).toBeUndefined();
  });

  it('getOpeningUrl reads result.url of bought_products/opening/:id, and refuses an answer without one', async () => {
    const { http, calls } = fakeHttp((url) =>
      url.endsWith(IDS.sale)
        ? { result: { url: 'https://partner.example/open?utmCode=U1' } }
        : { result: {} },
    );
    const provider = createDataProvider(http);
    expect(await provider.getOpeningUrl(IDS.sale)).toBe('https://partner.example/open?utmCode=U1');
    expect(calls[0].url).toBe(`/api/v1/bought_products/opening/${IDS.sale}`);
    expect(calls[0].options.method).toBeUndefined();
    await expect(provider.getOpeningUrl(IDS.customer)).rejects.toBeInstanceOf(UnreadableAnswerError);
  });

  it('openAccount posts the body to the partner call and reads the utmCode after the last "="', async () => {
    const { http, calls } = fakeHttp(() => OPENING('UTM-9'));
    const provider = createDataProvider(http);
    const saving = await provider.openAccount('saving_account', {
      accountType: 'PAYUSPRINT-SAVING',
      productId: IDS.saving,
      customerId: IDS.customer,
    });
    expect(calls[0].url).toBe('/api/v1/payusprint/saving_account');
    expect(calls[0].options.method).toBe('POST');
    expect(body(calls[0].options)).toEqual({
      accountType: 'PAYUSPRINT-SAVING',
      productId: IDS.saving,
      customerId: IDS.customer,
    });
    expect(saving).toEqual({
      url: 'https://partner.example/open?ref=a=b&utmCode=UTM-9',
      utmCode: 'UTM-9',
      merchantCode: 'M-42',
    });

    await provider.openAccount('current_account', {
      accountType: 'PAYUSPRINT-SOLE-PROPRIETOR',
      productId: IDS.sole,
      customerId: IDS.customer,
    });
    expect(calls[1].url).toBe('/api/v1/payusprint/current_account');
    expect(body(calls[1].options)).toEqual({
      accountType: 'PAYUSPRINT-SOLE-PROPRIETOR',
      productId: IDS.sole,
      customerId: IDS.customer,
    });
  });

  it('openAccount refuses a 200 without the URL or the merchant code', async () => {
    const { http } = fakeHttp(() => ({ result: { result: {}, merchantCode: 'M-42' } }));
    await expect(
      createDataProvider(http).openAccount('saving_account', { accountType: 'PAYUSPRINT-SAVING' }),
    ).rejects.toBeInstanceOf(UnreadableAnswerError);
    const noCode = fakeHttp(() => ({ result: { result: { data: 'https://p.example/?u=1' } } }));
    await expect(createDataProvider(noCode.http).openAccount('saving_account', {})).rejects.toThrow(
      "The partner's answer could not be read",
    );
  });

  it("create('sales') posts bought_products/create with the five seed fields and returns the sale", async () => {
    const { http, calls } = fakeHttp(() => ({
      result: wireSale({ status: 'PENDING', confirmedAt: null }),
      message: 'Sale recorded. Complete the account opening in the new tab.',
    }));
    const { data, meta } = await createDataProvider(http).create('sales', {
      data: {
        customerId: IDS.customer,
        retailerId: IDS.retailer,
        productId: IDS.saving,
        utmCode: 'UTM12345',
        merchantCode: 'MERCHANT-7',
        providerId: IDS.provider,
      },
    });
    expect(calls[0].url).toBe('/api/v1/bought_products/create');
    expect(calls[0].options.method).toBe('POST');
    expect(body(calls[0].options)).toEqual({
      customerId: IDS.customer,
      retailerId: IDS.retailer,
      productId: IDS.saving,
      utmCode: 'UTM12345',
      merchantCode: 'MERCHANT-7',
    });
    expect(meta).toEqual({ message: 'Sale recorded. Complete the account opening in the new tab.' });
    expect(data).toMatchObject({
      id: IDS.sale,
      status: 'PENDING',
      amount: 500,
      customerId: IDS.customer,
      customer: { id: IDS.customer, name: 'ramesh kumar' },
      product: { id: IDS.saving, name: 'saving account' },
      provider: { id: IDS.provider, name: 'PayU Sprint Bank' },
    });
  });

  it('sales list: bought_products/fetch with searchText and status; one sale by _id carries its postings', async () => {
    const { http, calls } = fakeHttp((url) =>
      url.includes('_id=')
        ? { result: { boughtProducts: [wireSale({ postings: SALE_POSTINGS })], totalCounts: 1 } }
        : { result: { boughtProducts: [wireSale()], totalCounts: 31 } },
    );
    const provider = createDataProvider(http);
    const { data, total } = await provider.getList('sales', {
      ...list,
      filter: { q: 'UTM', status: 'CONFIRMED' },
    });
    expect(calls[0].url).toBe(
      '/api/v1/bought_products/fetch?page=1&limit=10&searchText=UTM&status=CONFIRMED',
    );
    expect(total).toBe(31);
    expect(data[0]).toMatchObject({
      id: IDS.sale,
      utmCode: 'UTM12345',
      retailer: { name: 'ganesh mobile store' },
    });
    expect(data[0].postings).toBeUndefined();

    const { data: sale } = await provider.getOne('sales', { id: IDS.sale });
    expect(calls[1].url).toBe(`/api/v1/bought_products/fetch?_id=${IDS.sale}`);
    expect(sale.split.map((s: { tier: string; amount: number }) => [s.tier, s.amount])).toEqual([
      ['ADMIN', 200],
      ['MASTER_DISTRIBUTOR', 75],
      ['DISTRIBUTOR', 75],
      ['RETAILER', 100],
      ['CUSTOMER', 50],
    ]);
    expect(sale.postings).toHaveLength(5);
    expect(sale.postings[3]).toMatchObject({ name: 'ganesh mobile store', amount: 100, tier: 'RETAILER' });
  });
});

describe('dataProvider: the ledger', () => {
  it('transactions: the seed query (page, limit, transactionType, userId, userType, boughtProductId), users flattened', async () => {
    const { http, calls } = fakeHttp(() => ({ result: { transactions: SALE_POSTINGS, totalCounts: 5 } }));
    const { data, total } = await createDataProvider(http).getList('transactions', {
      pagination: { page: 2, perPage: 10 },
      sort: { field: 'createdAt', order: 'DESC' },
      filter: { userType: '4', transactionType: 'CREDIT', userId: IDS.retailer, boughtProductId: IDS.sale },
    });
    expect(calls[0].url).toBe(
      `/api/v1/transactions/fetch?page=2&limit=10&userType=4&transactionType=CREDIT&userId=${IDS.retailer}&boughtProductId=${IDS.sale}`,
    );
    expect(total).toBe(5);
    expect(data[3]).toEqual({
      id: SALE_POSTINGS[3]._id,
      userId: IDS.retailer,
      user: { id: IDS.retailer, name: 'ganesh mobile store' },
      name: 'ganesh mobile store',
      email: '9300000001@demo.tierdesk.in',
      mobile: '9300000001',
      userType: 4,
      amount: 100,
      transactionType: 'CREDIT',
      balanceType: 'CLEARING',
      kind: 'COMMISSION',
      status: 'CLEARING',
      balance: 0,
      clearingBalance: 100,
      tier: 'RETAILER',
      boughtProductId: IDS.sale,
      refPostingId: null,
      reference: null,
      saleReference: null,
      createdAt: '2026-11-22T09:30:00.000Z',
    });
  });

  it('the user type of the admin (0) is sent', async () => {
    const { http, calls } = fakeHttp(() => ({ result: { transactions: [], totalCounts: 0 } }));
    await createDataProvider(http).getList('transactions', { ...list, filter: { userType: '0' } });
    expect(calls[0].url).toBe('/api/v1/transactions/fetch?page=1&limit=10&userType=0');
  });

  it('wallet: the postings as the list and the balances beside them in meta', async () => {
    const { http, calls } = fakeHttp(() => ({
      result: {
        wallet: { balance: 320.5, clearingBalance: 100 },
        transactions: [SALE_POSTINGS[3]],
        totalCounts: 1,
      },
    }));
    const result = await createDataProvider(http).getList('wallet', {
      ...list,
      filter: { transactionType: 'DEBIT' },
    });
    expect(calls[0].url).toBe('/api/v1/wallet/fetch?page=1&limit=10&transactionType=DEBIT');
    expect(result.total).toBe(1);
    expect(result.data[0]).toMatchObject({ amount: 100, status: 'CLEARING' });
    expect(result.meta).toEqual({ wallet: { balance: 320.5, clearingBalance: 100 } });
  });

  it('settleWallets posts { userId } for one user and { all: true } for everyone', async () => {
    const { http, calls } = fakeHttp(() => ({
      result: { settled: 5, amount: 500, users: 5 },
      message: '5 commissions settled',
    }));
    const provider = createDataProvider(http);
    await expect(provider.settleWallets(IDS.retailer)).resolves.toEqual({
      result: { settled: 5, amount: 500, users: 5 },
      message: '5 commissions settled',
    });
    expect(calls[0].url).toBe('/api/v1/wallet/settle');
    expect(calls[0].options.method).toBe('POST');
    expect(body(calls[0].options)).toEqual({ userId: IDS.retailer });
    await provider.settleWallets();
    expect(body(calls[1].options)).toEqual({ all: true });
  });

  it('recordPayout posts { userId, amount, reference } and returns the posting and the message', async () => {
    const payout = wirePosting(9, 'retailer', 80, {
      transactionType: 'DEBIT',
      balanceType: 'AVAILABLE',
      kind: 'PAYOUT',
      status: 'PAID',
      tier: null,
      boughtProductId: null,
      reference: 'NEFT-1',
    });
    const { http, calls } = fakeHttp(() => ({ result: payout, message: 'Payout recorded' }));
    const { data, message } = await createDataProvider(http).recordPayout({
      userId: IDS.retailer,
      amount: '80.00',
      reference: 'NEFT-1',
    });
    expect(calls[0].url).toBe('/api/v1/wallet/payout');
    expect(calls[0].options.method).toBe('POST');
    expect(body(calls[0].options)).toEqual({ userId: IDS.retailer, amount: '80.00', reference: 'NEFT-1' });
    expect(message).toBe('Payout recorded');
    expect(data).toMatchObject({
      kind: 'PAYOUT',
      amount: 80,
      reference: 'NEFT-1',
      name: 'ganesh mobile store',
    });
  });

  it('approveCommand answers the message, and a one-time password only when the server gives one', async () => {
    const answers = [
      { result: { _id: 'c-1', status: 'APPROVED' }, message: 'Approved: the money has moved' },
      {
        result: { _id: 'c-2', status: 'APPROVED', oneTimePassword: 'Q2x9-fK3mVb7_TzA' },
        message: 'Approved',
      },
    ];
    const { http, calls } = fakeHttp(() => answers.shift() ?? {});
    const provider = createDataProvider(http);
    await expect(provider.approveCommand('c-1')).resolves.toEqual({
      message: 'Approved: the money has moved',
    });
    await expect(provider.approveCommand('c-2')).resolves.toEqual({
      message: 'Approved',
      oneTimePassword: 'Q2x9-fK3mVb7_TzA',
    });
    expect(calls.map((c) => [c.url, c.options.method])).toEqual([
      ['/api/v1/approvals/approve/c-1', 'POST'],
      ['/api/v1/approvals/approve/c-2', 'POST'],
    ]);
  });

  it('getAdminCount reads approvals/admins; promoteToAdmin posts the reason to account/promote/{id}', async () => {
    const answers = [{ result: { admins: 1 } }, { result: { _id: 'c-3' }, message: 'Waits' }];
    const { http, calls } = fakeHttp(() => answers.shift() ?? {});
    const provider = createDataProvider(http);
    await expect(provider.getAdminCount()).resolves.toBe(1);
    await expect(provider.promoteToAdmin('e-1', 'Runs the branch')).resolves.toEqual({
      pending: 'c-3',
      message: 'Waits',
    });
    expect(calls[0].url).toBe('/api/v1/approvals/admins');
    expect(calls[1].url).toBe('/api/v1/account/promote/e-1');
    expect(body(calls[1].options)).toEqual({ reason: 'Runs the branch' });
  });

  it('getCommissionReport reads result.commissions of report/commissions', async () => {
    const { http, calls } = fakeHttp(() => ({
      result: { commissions: { today: 450, month: 1200.5, clearing: 300 } },
    }));
    await expect(createDataProvider(http).getCommissionReport()).resolves.toEqual({
      today: 450,
      month: 1200.5,
      clearing: 300,
    });
    expect(calls[0].url).toBe('/api/v1/report/commissions');
    expect(calls[0].options.method ?? 'GET').toBe('GET');
  });
});
