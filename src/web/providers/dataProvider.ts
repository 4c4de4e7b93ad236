import type { DataProvider, GetListParams, Identifier, RaRecord } from 'react-admin';
import { UserType } from '../../shared/enums';
import { MSG } from '../../shared/messages';
import type { Envelope, UserCounts } from '../../shared/wire';
import { apiUrl, type HttpOptions, httpClient } from './httpClient';

/**
 * Resource-to-endpoint table (seed section 7, ARCHITECTURE.md wire contract). Resource names are the
 * keys of ROLE_TABLE in src/shared/roles.ts, so canAccess and the menu read the same names.
 * `listKey` names the array inside `result`; `fixed` is sent with every fetch (users share one path).
 */
export interface Endpoint {
  fetch: string;
  create?: string;
  /** POST `${update}/{id}` */
  update?: string;
  listKey: string;
  fixed?: Record<string, string | number>;
}

const users = (type: UserType): Endpoint => ({
  fetch: 'account/fetch',
  create: 'account/create',
  update: 'account/update',
  listKey: 'users',
  fixed: { type },
});

export const ENDPOINTS: Record<string, Endpoint> = {
  states: { fetch: 'state/fetch', create: 'state/create', update: 'state/update', listKey: 'state' },
  districts: {
    fetch: 'districts/fetch',
    create: 'districts/create',
    update: 'districts/update',
    listKey: 'districts',
  },
  tehsils: { fetch: 'tehsil/fetch', create: 'tehsil/create', update: 'tehsil/update', listKey: 'tehsil' },
  providers: {
    fetch: 'providers/fetch',
    create: 'providers/create',
    update: 'providers/update',
    listKey: 'providers',
  },
  products: {
    fetch: 'products/fetch',
    create: 'products/create',
    update: 'products/update',
    listKey: 'products',
  },
  transactions: { fetch: 'transactions/fetch', listKey: 'transactions' },
  masterDistributors: users(UserType.MASTER_DISTRIBUTOR),
  distributors: users(UserType.DISTRIBUTOR),
  retailers: users(UserType.RETAILER),
  customers: users(UserType.CUSTOMER),
  employees: users(UserType.EMPLOYEE),
};

export interface ResetPasswordInput {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** react-admin's methods plus the panel's custom calls (use `useDataProvider<AppDataProvider>()`). */
export interface AppDataProvider extends DataProvider {
  /** GET report/userCounts -> result.userReport[0] */
  getUserCounts(): Promise<UserCounts>;
  /** POST account/resetPassword -> the server's message */
  resetPassword(input: ResetPasswordInput): Promise<{ message: string }>;
}

type HttpClient = typeof httpClient;

const endpointOf = (resource: string): Endpoint => {
  const endpoint = ENDPOINTS[resource];
  if (!endpoint) throw new Error(`Unknown resource: ${resource}`);
  return endpoint;
};

const toQuery = (params: Record<string, unknown>): string => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
};

const toRecord = (item: unknown): RaRecord => {
  const row = item as RaRecord & { _id?: Identifier };
  return { ...row, id: row._id ?? row.id };
};

type ListResult = Record<string, unknown> & { totalCounts?: number };

export const createDataProvider = (http: HttpClient = httpClient): AppDataProvider => {
  const fetchList = async (
    resource: string,
    params: Partial<GetListParams>,
    extra: Record<string, unknown> = {},
  ) => {
    const endpoint = endpointOf(resource);
    const { q, ...filter } = (params.filter ?? {}) as Record<string, unknown>;
    const query = {
      ...endpoint.fixed,
      page: params.pagination?.page,
      limit: params.pagination?.perPage,
      searchText: q,
      ...filter,
      ...extra,
    };
    const { json } = await http<Envelope<ListResult> & { totalCounts?: number }>(
      apiUrl(`${endpoint.fetch}${toQuery(query)}`),
    );
    const items = (json.result?.[endpoint.listKey] ?? []) as unknown[];
    const total = json.result?.totalCounts ?? json.totalCounts ?? items.length;
    return { data: items.map(toRecord), total };
  };

  const post = (path: string, body: unknown, options: HttpOptions = {}) =>
    http<Envelope<unknown>>(apiUrl(path), { ...options, method: 'POST', body: JSON.stringify(body) });

  const unsupported = (method: string) => () => Promise.reject(new Error(`${method} is not supported`));

  return {
    getList: (resource, params) => fetchList(resource, params) as never,

    async getOne(resource, params) {
      const { data } = await fetchList(resource, {}, { _id: params.id });
      if (!data[0]) throw new Error(MSG.notFound);
      return { data: data[0] as never };
    },

    async getMany(resource, params) {
      const rows = await Promise.all(
        params.ids.map((id) => fetchList(resource, {}, { _id: id }).then(({ data }) => data[0])),
      );
      return { data: rows.filter(Boolean) as never[] };
    },

    getManyReference: (resource, params) =>
      fetchList(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } }) as never,

    async create(resource, params) {
      const endpoint = endpointOf(resource);
      if (!endpoint.create) throw new Error(`create is not supported for ${resource}`);
      const { json } = await post(endpoint.create, { ...endpoint.fixed, ...params.data });
      const result = json.result && typeof json.result === 'object' ? json.result : params.data;
      return { data: toRecord(result) as never };
    },

    async update(resource, params) {
      const endpoint = endpointOf(resource);
      if (!endpoint.update) throw new Error(`update is not supported for ${resource}`);
      const { json } = await post(`${endpoint.update}/${encodeURIComponent(String(params.id))}`, params.data);
      const result =
        json.result && typeof json.result === 'object' ? json.result : { ...params.data, id: params.id };
      return { data: toRecord(result) as never };
    },

    updateMany: unsupported('updateMany'),
    delete: unsupported('delete'),
    deleteMany: unsupported('deleteMany'),

    async getUserCounts() {
      const { json } = await http<Envelope<{ userReport: UserCounts[] }>>(apiUrl('report/userCounts'));
      const counts = json.result?.userReport?.[0];
      if (!counts) throw new Error('No user counts');
      return counts;
    },

    async resetPassword(input) {
      const { json } = await post('account/resetPassword', input);
      return { message: json.message ?? MSG.passwordUpdated };
    },
  };
};

export const dataProvider = createDataProvider();
