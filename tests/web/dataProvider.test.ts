import { createDataProvider } from '../../src/web/providers/dataProvider';
import type { HttpOptions, HttpResponse } from '../../src/web/providers/httpClient';

const STATE_A = { _id: 's-1', name: 'uttar pradesh', createdAt: '2026-11-21T10:00:00.000Z' };
const DISTRICT = {
  _id: 'd-1',
  name: 'lucknow',
  stateId: { _id: 's-1', name: 'uttar pradesh' },
  createdAt: '2026-11-21T10:00:00.000Z',
};

/** A fake httpClient (as ra-data-simple-rest's spec injects one): records calls, answers from a table. */
const fakeHttp = (answer: (url: string, options: HttpOptions) => { result?: unknown; message?: string }) => {
  const calls: { url: string; options: HttpOptions }[] = [];
  const http = vi.fn(async (url: string, options: HttpOptions = {}) => {
    calls.push({ url, options });
    const json = answer(url, options);
    return { status: 200, headers: new Headers(), body: JSON.stringify(json), json } as HttpResponse<never>;
  });
  return { http: http as unknown as Parameters<typeof createDataProvider>[0], calls };
};

const list = { pagination: { page: 1, perPage: 10 }, sort: { field: 'createdAt', order: 'DESC' as const } };

describe('dataProvider: location and catalogue lists', () => {
  it('getList maps page/perPage/q/sort to page/limit/searchText/sort/order and returns { data with id, total }', async () => {
    const { http, calls } = fakeHttp(() => ({ result: { state: [STATE_A], totalCounts: 31 } }));
    const result = await createDataProvider(http).getList('states', {
      pagination: { page: 2, perPage: 10 },
      sort: { field: 'name', order: 'ASC' },
      filter: { q: 'utt' },
    });
    expect(calls[0].url).toBe('/api/v1/state/fetch?page=2&limit=10&searchText=utt&sort=name&order=ASC');
    expect(result).toEqual({ data: [{ ...STATE_A, id: 's-1' }], total: 31 });
  });

  it('does not send sort fields the server does not sort by (react-admin defaults to id)', async () => {
    const { http, calls } = fakeHttp(() => ({ result: { providers: [], totalCounts: 0 } }));
    await createDataProvider(http).getList('providers', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'DESC' },
      filter: {},
    });
    expect(calls[0].url).toBe('/api/v1/providers/fetch?page=1&limit=10');
  });

  it('sends the stateId filter for districts and keeps the populated state beside its id', async () => {
    const { http, calls } = fakeHttp(() => ({ result: { districts: [DISTRICT], totalCounts: 1 } }));
    const { data, total } = await createDataProvider(http).getList('districts', {
      ...list,
      filter: { stateId: 's-1', q: 'luck' },
    });
    expect(calls[0].url).toBe(
      '/api/v1/districts/fetch?page=1&limit=10&searchText=luck&sort=createdAt&order=DESC&stateId=s-1',
    );
    expect(total).toBe(1);
    expect(data[0]).toEqual({
      _id: 'd-1',
      id: 'd-1',
      name: 'lucknow',
      stateId: 's-1',
      state: { id: 's-1', name: 'uttar pradesh' },
      createdAt: DISTRICT.createdAt,
    });
  });

  it('maps tehsil (districtId, stateId) and product (providerId) references the same way', async () => {
    const { http, calls } = fakeHttp((url) =>
      url.includes('tehsil/')
        ? {
            result: {
              tehsil: [
                {
                  _id: 't-1',
                  name: 'malihabad',
                  districtId: { _id: 'd-1', name: 'lucknow' },
                  stateId: { _id: 's-1', name: 'uttar pradesh' },
                  createdAt: '2026-11-21T10:00:00.000Z',
                },
              ],
              totalCounts: 1,
            },
          }
        : {
            result: {
              products: [{ _id: 'p-1', name: 'saving', providerId: { _id: 'v-1', name: 'payu' } }],
              totalCounts: 1,
            },
          },
    );
    const provider = createDataProvider(http);
    const tehsils = await provider.getList('tehsils', {
      ...list,
      filter: { districtId: 'd-1', stateId: 's-1' },
    });
    expect(calls[0].url).toBe(
      '/api/v1/tehsil/fetch?page=1&limit=10&sort=createdAt&order=DESC&districtId=d-1&stateId=s-1',
    );
    expect(tehsils.data[0]).toMatchObject({
      id: 't-1',
      districtId: 'd-1',
      district: { id: 'd-1', name: 'lucknow' },
      stateId: 's-1',
      state: { id: 's-1', name: 'uttar pradesh' },
    });
    const products = await provider.getList('products', { ...list, filter: { providerId: 'v-1' } });
    expect(calls[1].url).toBe(
      '/api/v1/products/fetch?page=1&limit=10&sort=createdAt&order=DESC&providerId=v-1',
    );
    expect(products.data[0]).toMatchObject({
      id: 'p-1',
      providerId: 'v-1',
      provider: { id: 'v-1', name: 'payu' },
    });
  });

  it('reads a page larger than the server limit (the CSV export asks for 1000) in pages of 100', async () => {
    const rows = Array.from({ length: 230 }, (_, i) => ({
      _id: `s-${i}`,
      name: `state ${i}`,
      createdAt: '',
    }));
    const { http, calls } = fakeHttp((url) => {
      const query = new URL(url, 'http://x').searchParams;
      const page = Number(query.get('page'));
      const limit = Number(query.get('limit'));
      return { result: { state: rows.slice((page - 1) * limit, page * limit), totalCounts: rows.length } };
    });
    const { data, total } = await createDataProvider(http).getList('states', {
      pagination: { page: 1, perPage: 1000 },
      sort: { field: 'createdAt', order: 'DESC' },
      filter: { q: 'state' },
    });
    expect(calls.map((c) => c.url)).toEqual([
      '/api/v1/state/fetch?page=1&limit=100&searchText=state&sort=createdAt&order=DESC',
      '/api/v1/state/fetch?page=2&limit=100&searchText=state&sort=createdAt&order=DESC',
      '/api/v1/state/fetch?page=3&limit=100&searchText=state&sort=createdAt&order=DESC',
    ]);
    expect(total).toBe(230);
    expect(data).toHaveLength(230);
    expect(data[229].id).toBe('s-229');
  });

  it('getManyReference filters by the target', async () => {
    const { http, calls } = fakeHttp(() => ({ result: { districts: [DISTRICT], totalCounts: 1 } }));
    await createDataProvider(http).getManyReference('districts', {
      target: 'stateId',
      id: 's-1',
      ...list,
      filter: {},
    });
    expect(calls[0].url).toBe(
      '/api/v1/districts/fetch?page=1&limit=10&sort=createdAt&order=DESC&stateId=s-1',
    );
  });
});

describe('dataProvider: getMany for typeaheads', () => {
  it('fetches each id through the _id filter and drops ids the server does not know', async () => {
    const { http, calls } = fakeHttp((url) => ({
      result: {
        state: url.includes('_id=s-1') ? [STATE_A] : [],
        totalCounts: url.includes('_id=s-1') ? 1 : 0,
      },
    }));
    const { data } = await createDataProvider(http).getMany('states', { ids: ['s-1', 'missing'] });
    expect(data).toEqual([{ ...STATE_A, id: 's-1' }]);
    expect(calls.map((c) => c.url)).toEqual([
      '/api/v1/state/fetch?_id=s-1',
      '/api/v1/state/fetch?_id=missing',
    ]);
  });

  it('fetches a product by productId', async () => {
    const { http, calls } = fakeHttp(() => ({
      result: {
        products: [{ _id: 'p-1', name: 'saving', providerId: { _id: 'v-1', name: 'payu' } }],
        totalCounts: 1,
      },
    }));
    const { data } = await createDataProvider(http).getOne('products', { id: 'p-1' });
    expect(calls[0].url).toBe('/api/v1/products/fetch?productId=p-1');
    expect(data).toMatchObject({ id: 'p-1', providerId: 'v-1' });
  });
});

describe('dataProvider: create and update bodies', () => {
  const body = (options: HttpOptions) => JSON.parse(String(options.body));

  it('state create/update send { name } only and return the server message in meta', async () => {
    const { http, calls } = fakeHttp((url) => ({
      result: { _id: 's-9', name: 'goa', createdAt: '' },
      message: url.includes('create') ? 'State Created Successfully!' : 'State Updated Successfully!',
    }));
    const provider = createDataProvider(http);
    const created = await provider.create('states', { data: { name: 'goa', id: 'x', createdAt: 'y' } });
    expect(calls[0].url).toBe('/api/v1/state/create');
    expect(calls[0].options.method).toBe('POST');
    expect(body(calls[0].options)).toEqual({ name: 'goa' });
    expect(created).toEqual({
      data: { _id: 's-9', id: 's-9', name: 'goa', createdAt: '' },
      meta: { message: 'State Created Successfully!' },
    });
    const updated = await provider.update('states', {
      id: 's-9',
      data: { name: 'goa' },
      previousData: { id: 's-9' },
    });
    expect(calls[1].url).toBe('/api/v1/state/update/s-9');
    expect(body(calls[1].options)).toEqual({ name: 'goa' });
    expect(updated.meta).toEqual({ message: 'State Updated Successfully!' });
  });

  it('district and tehsil bodies carry their parent ids, not the looked-up names', async () => {
    const { http, calls } = fakeHttp(() => ({ result: { _id: 'new' } }));
    const provider = createDataProvider(http);
    await provider.create('districts', {
      data: { name: 'lucknow', stateId: 's-1', state: { id: 's-1', name: 'uttar pradesh' } },
    });
    expect(calls[0].url).toBe('/api/v1/districts/create');
    expect(body(calls[0].options)).toEqual({ name: 'lucknow', stateId: 's-1' });
    await provider.update('tehsils', {
      id: 't-1',
      data: { name: 'malihabad', districtId: 'd-1', stateId: 's-1', district: {}, state: {} },
      previousData: { id: 't-1' },
    });
    expect(calls[1].url).toBe('/api/v1/tehsil/update/t-1');
    expect(body(calls[1].options)).toEqual({ name: 'malihabad', districtId: 'd-1', stateId: 's-1' });
  });

  it('product create sends the product fields and urlParams', async () => {
    const { http, calls } = fakeHttp(() => ({
      result: { _id: 'p-2' },
      message: 'Product Created Successfully!',
    }));
    const product = {
      providerId: 'v-1',
      name: 'saving',
      url: 'https://partner.example/open',
      amount: 500,
      adminCommission: 40,
      masterDistributorCommission: 15,
      distributorCommission: 15,
      retailerCommission: 20,
      customerCommission: 10,
      urlParams: { reqType: 'POST', data: 'PAYUSPRINT-SAVING' },
    };
    const { meta } = await createDataProvider(http).create('products', {
      data: { ...product, provider: { id: 'v-1', name: 'payu' } },
    });
    expect(calls[0].url).toBe('/api/v1/products/create');
    expect(body(calls[0].options)).toEqual(product);
    expect(meta).toEqual({ message: 'Product Created Successfully!' });
  });
});
