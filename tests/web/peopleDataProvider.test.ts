import { UserType } from '../../src/shared/enums';
import { formatDate, formatRupees } from '../../src/shared/format';
import type { WireUser } from '../../src/shared/wire';
import { i18nProvider } from '../../src/web/i18n/i18n';
import { csvRows } from '../../src/web/lists/columns';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import type { HttpOptions, HttpResponse } from '../../src/web/providers/httpClient';
import { userToBody, userToRecord } from '../../src/web/providers/users';
import { userColumns } from '../../src/web/resources/people/columns';
import { wireUser } from './helpers';

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

const place = {
  districtId: 'd-1',
  tehsilId: 't-1',
  district: [{ _id: 'd-1', name: 'jaipur' }],
  tehsil: [{ _id: 't-1', name: 'sanganer' }],
};
const common = (id: string, type: UserType, overrides: Partial<WireUser> = {}) =>
  wireUser({
    _id: id,
    name: 'ravi kumar',
    email: { address: 'ravi@example.in' },
    mobile: { number: '9812345678' },
    userName: { id: 'ravi1' },
    type,
    wallet: { balance: 1250.5, clearingBalance: 30 },
    createdAt: '2026-11-21T12:00:00.000Z',
    ...place,
    ...overrides,
  });

const MD = common('m-1', UserType.MASTER_DISTRIBUTOR, {
  distributor: { isMaster: true, distributorCode: 'abcA12', masterDistributorCommission: '10.5' },
});
const DISTRIBUTOR = common('x-1', UserType.DISTRIBUTOR, {
  distributor: { isMaster: false, masterDistributorId: 'm-1' },
  master_distributor: [{ _id: 'm-1', name: 'mahesh traders' }],
});
const RETAILER = common('r-1', UserType.RETAILER, {
  retailer: { distributorId: 'x-1', masterDistributorId: 'm-1' },
  distributor: [{ _id: 'x-1', name: 'dev agencies' }],
  master_distributor: [{ _id: 'm-1', name: 'mahesh traders' }],
});
const CUSTOMER = common('c-1', UserType.CUSTOMER, {
  customer: { aadharId: 'XXXXXXXX1234', panId: 'ABCDE1234F', retailerId: 'r-1' },
  retailer: [{ _id: 'r-1', name: 'shiv store' }],
});

const shared = {
  name: 'ravi kumar',
  email: 'ravi@example.in',
  mobile: '9812345678',
  userName: 'ravi1',
  districtId: 'd-1',
  tehsilId: 't-1',
};

describe('users: wire -> record', () => {
  it('flattens the nested shared fields, the looked-up places and the wallet', () => {
    expect(userToRecord(common('e-1', UserType.EMPLOYEE))).toEqual({
      id: 'e-1',
      ...shared,
      type: UserType.EMPLOYEE,
      status: 'ACTIVE',
      district: { id: 'd-1', name: 'jaipur' },
      tehsil: { id: 't-1', name: 'sanganer' },
      balance: 1250.5,
      clearingBalance: 30,
      passwordUpdatedAt: '2024-01-01T00:00:00.000Z',
      createdAt: '2026-11-21T12:00:00.000Z',
    });
  });

  it('keeps each type its parents (id beside { id, name }) and the customer its identity numbers', () => {
    expect(userToRecord(MD)).toMatchObject({
      isMaster: true,
      distributorCode: 'abcA12',
      masterDistributorCommission: '10.5',
    });
    expect(userToRecord(DISTRIBUTOR)).toMatchObject({
      masterDistributorId: 'm-1',
      masterDistributor: { id: 'm-1', name: 'mahesh traders' },
    });
    expect(userToRecord(RETAILER)).toMatchObject({
      masterDistributorId: 'm-1',
      masterDistributor: { id: 'm-1', name: 'mahesh traders' },
      distributorId: 'x-1',
      distributor: { id: 'x-1', name: 'dev agencies' },
    });
    expect(userToRecord(CUSTOMER)).toMatchObject({
      aadharId: 'XXXXXXXX1234',
      panId: 'ABCDE1234F',
      retailerId: 'r-1',
      retailer: { id: 'r-1', name: 'shiv store' },
    });
    const orphan = userToRecord(common('c-2', UserType.CUSTOMER, { retailer: [], district: [], tehsil: [] }));
    expect(orphan).toMatchObject({ retailerId: null, retailer: undefined, district: undefined });
  });
});

describe('dataProvider: user lists', () => {
  it('sends the type of the resource, paging, searchText and the filters; no sort (the server sorts newest first)', async () => {
    const { http, calls } = fakeHttp(() => ({ result: { users: [RETAILER], totalCounts: 23 } }));
    const { data, total } = await createDataProvider(http).getList('retailers', {
      pagination: { page: 3, perPage: 10 },
      sort: { field: 'createdAt', order: 'DESC' },
      filter: { q: 'shiv', masterDistributorId: 'm-1' },
    });
    expect(calls[0].url).toBe(
      '/api/v1/account/fetch?type=4&page=3&limit=10&searchText=shiv&masterDistributorId=m-1',
    );
    expect(total).toBe(23);
    expect(data[0]).toMatchObject({ id: 'r-1', email: 'ravi@example.in', distributorId: 'x-1' });
  });

  it.each([
    ['masterDistributors', 2],
    ['distributors', 3],
    ['customers', 1],
    ['employees', 5],
  ])('%s fetch type %i', async (resource, type) => {
    const { http, calls } = fakeHttp(() => ({ result: { users: [], totalCounts: 0 } }));
    await createDataProvider(http).getList(resource, { ...list, filter: {} });
    expect(calls[0].url).toBe(`/api/v1/account/fetch?type=${type}&page=1&limit=10`);
  });

  it('typeahead choices: the distributors of a master distributor, and getMany by _id', async () => {
    const { http, calls } = fakeHttp((url) => ({
      result: { users: url.includes('_id=x-1') ? [DISTRIBUTOR] : [], totalCounts: 1 },
    }));
    const provider = createDataProvider(http);
    await provider.getList('distributors', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'name', order: 'ASC' },
      filter: { q: 'dev', masterDistributorId: 'm-1' },
    });
    expect(calls[0].url).toBe(
      '/api/v1/account/fetch?type=3&page=1&limit=10&searchText=dev&masterDistributorId=m-1',
    );
    const { data } = await provider.getMany('distributors', { ids: ['x-1'] });
    expect(calls[1].url).toBe('/api/v1/account/fetch?type=3&_id=x-1');
    expect(data).toEqual([userToRecord(DISTRIBUTOR)]);
  });
});

describe('dataProvider: user create/update bodies', () => {
  it('master distributor: the shared flat strings and the type; nothing looked-up is sent', async () => {
    const { http, calls } = fakeHttp(() => ({
      result: MD,
      message: 'MasterDistributor Created Successfully!',
    }));
    const created = await createDataProvider(http).create('masterDistributors', {
      data: { ...shared, name: '  ravi kumar ', district: { id: 'd-1', name: 'jaipur' }, balance: 9 },
    });
    expect(calls[0].url).toBe('/api/v1/account/create');
    expect(calls[0].options.method).toBe('POST');
    // A tier user's PAN is optional: left blank, it is sent as null (no PAN).
    expect(body(calls[0].options)).toEqual({ type: 2, ...shared, panId: null });
    expect(created.data).toEqual(userToRecord(MD));
    expect(created.meta).toEqual({ message: 'MasterDistributor Created Successfully!' });
  });

  it('distributor and retailer: their parents in the distributor / retailer sub-objects', async () => {
    const { http, calls } = fakeHttp(() => ({ result: RETAILER }));
    const provider = createDataProvider(http);
    await provider.create('distributors', { data: { ...shared, masterDistributorId: 'm-1' } });
    expect(body(calls[0].options)).toEqual({
      type: 3,
      ...shared,
      panId: null,
      distributor: { masterDistributorId: 'm-1' },
    });
    await provider.create('retailers', {
      data: { ...shared, masterDistributorId: 'm-1', distributorId: 'x-1', panId: ' abcde1234f ' },
    });
    expect(body(calls[1].options)).toEqual({
      type: 4,
      ...shared,
      panId: 'ABCDE1234F',
      distributor: { masterDistributorId: 'm-1' },
      retailer: { distributorId: 'x-1' },
    });
    await provider.update('retailers', {
      id: 'r-1',
      data: { ...shared, masterDistributorId: 'm-2', distributorId: 'x-3' },
      previousData: userToRecord(RETAILER),
    });
    expect(calls[2].url).toBe('/api/v1/account/update/r-1');
    expect(body(calls[2].options)).toEqual({
      type: 4,
      ...shared,
      panId: null,
      distributor: { masterDistributorId: 'm-2' },
      retailer: { distributorId: 'x-3' },
    });
  });

  it('customer: aadharId, panId (upper-cased) and an optional retailerId in the customer sub-object', async () => {
    const { http, calls } = fakeHttp(() => ({ result: CUSTOMER }));
    const provider = createDataProvider(http);
    await provider.create('customers', {
      data: { ...shared, aadharId: '2345 6789 0124', panId: 'abcde1234f', retailerId: null },
    });
    expect(body(calls[0].options)).toEqual({
      type: 1,
      ...shared,
      customer: { aadharId: '234567890124', panId: 'ABCDE1234F', retailerId: null },
    });
    // The masked number sent back keeps the stored one (the server's rule).
    await provider.update('customers', {
      id: 'c-1',
      data: { ...shared, aadharId: 'XXXXXXXX1234', panId: 'ABCDE1234F', retailerId: 'r-1' },
      previousData: userToRecord(CUSTOMER),
    });
    expect(calls[1].url).toBe('/api/v1/account/update/c-1');
    expect(body(calls[1].options).customer).toEqual({
      aadharId: 'XXXXXXXX1234',
      panId: 'ABCDE1234F',
      retailerId: 'r-1',
    });
  });

  it('employee: the passwords on create only', async () => {
    const { http, calls } = fakeHttp(() => ({ result: common('e-1', UserType.EMPLOYEE) }));
    const provider = createDataProvider(http);
    const passwords = { password: 'Secret@123', confirmPassword: 'Secret@123' };
    await provider.create('employees', { data: { ...shared, ...passwords } });
    expect(body(calls[0].options)).toEqual({ type: 5, ...shared, ...passwords });
    await provider.update('employees', {
      id: 'e-1',
      data: { ...shared, ...passwords },
      previousData: { id: 'e-1' },
    });
    expect(body(calls[1].options)).toEqual({ type: 5, ...shared });
  });

  it('employees: the Admin role asks for another admin (type 0, no password: issue 51); an update stays an employee', async () => {
    const { http, calls } = fakeHttp(() => ({ result: common('a-2', UserType.ADMIN) }));
    const provider = createDataProvider(http);
    const passwords = { password: 'Secret@123', confirmPassword: 'Secret@123' };
    await provider.create('employees', { data: { ...shared, ...passwords, role: '0' } });
    expect(calls[0].url).toBe('/api/v1/account/create');
    // The approving admin receives a one-time password: the maker's typed one is never sent.
    expect(body(calls[0].options)).toEqual({ type: 0, ...shared });
    await provider.create('employees', { data: { ...shared, ...passwords, role: '5' } });
    expect(body(calls[1].options)).toEqual({ type: 5, ...shared, ...passwords });
    await provider.update('employees', {
      id: 'e-1',
      data: { ...shared, role: '0' },
      previousData: { id: 'e-1' },
    });
    expect(body(calls[2].options)).toEqual({ type: 5, ...shared });
  });

  it('Update Status: { status } alone is sent as it is and the message comes back', async () => {
    const { http, calls } = fakeHttp(() => ({
      result: { ...MD, status: 'INACTIVE' },
      message: 'User Status Changed Successfully',
    }));
    const updated = await createDataProvider(http).update('masterDistributors', {
      id: 'm-1',
      data: { status: 'INACTIVE' },
      previousData: userToRecord(MD),
    });
    expect(calls[0].url).toBe('/api/v1/account/update/m-1');
    expect(body(calls[0].options)).toEqual({ status: 'INACTIVE' });
    expect(updated.data).toMatchObject({ id: 'm-1', status: 'INACTIVE' });
    expect(updated.meta).toEqual({ message: 'User Status Changed Successfully' });
    // A create never reads as a status change.
    expect(userToBody(UserType.CUSTOMER, { status: 'ACTIVE' }, 'create')).toMatchObject({
      type: 1,
      name: '',
    });
  });
});

describe('formatRupees (money columns)', () => {
  it.each([
    [1250.5, '₹1,250.50'],
    [123456.789, '₹1,23,456.79'],
    [0, '₹0.00'],
    ['30', '₹30.00'],
    [null, ''],
    ['abc', ''],
  ])('%j -> %j', (value, expected) => {
    expect(formatRupees(value)).toBe(expected);
  });
});

describe('CSV export of the user lists', () => {
  it('writes the declared columns in the list order: names title-cased, parents by name, dates medium', () => {
    const columns = userColumns([
      'name',
      'mobile',
      'distributor',
      'district',
      'clearingBalance',
      'balance',
      'status',
      'createdAt',
    ]);
    const [row] = csvRows('retailers', columns, [userToRecord(RETAILER)], i18nProvider.translate);
    expect(Object.entries(row)).toEqual([
      ['Name', 'Ravi Kumar'],
      ['Mobile', '9812345678'],
      ['Distributor', 'Dev Agencies'],
      ['District', 'Jaipur'],
      ['Clearing Balance', 30],
      ['Balance', 1250.5],
      ['Status', 'ACTIVE'],
      // The seed's medium format: the moment with its time (issue 53).
      ['Created At', formatDate('2026-11-21T12:00:00.000Z')],
    ]);
    const [customer] = csvRows(
      'customers',
      userColumns(['panId', 'aadharId', 'retailer']),
      [userToRecord(CUSTOMER)],
      i18nProvider.translate,
    );
    expect(Object.entries(customer)).toEqual([
      ['PAN Id', 'ABCDE1234F'],
      ['Aadhar Id', 'XXXXXXXX1234'],
      ['Retailer', 'Shiv Store'],
    ]);
  });
});
