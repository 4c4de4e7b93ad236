import type { DataProvider, GetListParams, Identifier, RaRecord } from 'react-admin';
import { COMMISSION_FIELDS } from '../../shared/constants/catalog';
import { SALES_MSG, utmCodeOf } from '../../shared/constants/sales';
import { UserType } from '../../shared/enums';
import { MSG } from '../../shared/messages';
import { MAX_PAGE_SIZE } from '../../shared/rules';
import type { BooksFetchResult, ReconcileRun, SettlePreview } from '../../shared/schemas/books';
import type { ImportKind, WireImportJob } from '../../shared/schemas/imports';
import type { NotificationPreferences } from '../../shared/schemas/notifications';
import type { ProductSales, TopRetailer, TrendDay } from '../../shared/schemas/reports';
import type { AccountOpeningInput, PartnerCall } from '../../shared/schemas/sales';
import type { Statement } from '../../shared/schemas/statements';
import type { TdsDepositsResult, TdsFetchResult, TdsQuartersResult } from '../../shared/schemas/tds';
import type {
  AccountOpeningResult,
  ApprovedCommand,
  CommissionReport,
  Envelope,
  MfaSetupResult,
  RecoveryCodesResult,
  SettleResult,
  UserCounts,
  UserFetchResult,
  WireCommand,
  WireSession,
  WireTransaction,
  WireUser,
} from '../../shared/wire';
import { apiUrl, type HttpOptions, httpClient } from './httpClient';
import { saleToRecord, type TransactionRecord, transactionToRecord } from './ledger';
import { staffTypeOf, userToBody, userToRecord } from './users';

/**
 * Resource-to-endpoint table (seed section 7, docs/api.md, Conventions). Resource names are the
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
  /** Query parameter that fetches one record by id (default `_id`). */
  byId?: string;
  /** Columns the server sorts by (`sort` + `order`); other sort fields are not sent. */
  sortable?: readonly string[];
  /**
   * Populated references `{ _id, name }` on the wire, by field: the record keeps the id in the field
   * (`stateId: '…'`, what forms and filters use) and the named object beside it (`state: { id, name }`).
   */
  refs?: Record<string, { resource: string; as: string }>;
  /** The body fields create/update send (seed section 7); without it the whole record is sent. */
  writable?: readonly string[];
  /** Wire item -> record, for shapes that `_id` -> `id` and `refs` do not cover (users' nested fields). */
  toRecord?: (item: unknown) => RaRecord;
  /** Record -> create/update body, for bodies that `writable` does not cover (users' sub-objects). */
  toBody?: (data: Record<string, unknown>, action: 'create' | 'update') => Record<string, unknown>;
}

const users = (type: UserType): Endpoint => ({
  fetch: 'account/fetch',
  create: 'account/create',
  update: 'account/update',
  listKey: 'users',
  fixed: { type },
  byId: '_id',
  toRecord: userToRecord,
  toBody: (data, action) => userToBody(type, data, action),
});

const BY_NAME_OR_DATE = ['name', 'createdAt'] as const;
const STATE_REF = { stateId: { resource: 'states', as: 'state' } };

export const ENDPOINTS: Record<string, Endpoint> = {
  states: {
    fetch: 'state/fetch',
    create: 'state/create',
    update: 'state/update',
    listKey: 'state',
    byId: '_id',
    sortable: BY_NAME_OR_DATE,
    writable: ['name'],
  },
  districts: {
    fetch: 'districts/fetch',
    create: 'districts/create',
    update: 'districts/update',
    listKey: 'districts',
    byId: '_id',
    sortable: BY_NAME_OR_DATE,
    refs: STATE_REF,
    writable: ['name', 'stateId'],
  },
  tehsils: {
    fetch: 'tehsil/fetch',
    create: 'tehsil/create',
    update: 'tehsil/update',
    listKey: 'tehsil',
    byId: '_id',
    sortable: BY_NAME_OR_DATE,
    refs: { ...STATE_REF, districtId: { resource: 'districts', as: 'district' } },
    writable: ['name', 'districtId', 'stateId'],
  },
  providers: {
    fetch: 'providers/fetch',
    create: 'providers/create',
    update: 'providers/update',
    listKey: 'providers',
    byId: '_id',
    sortable: BY_NAME_OR_DATE,
    writable: ['name'],
  },
  products: {
    fetch: 'products/fetch',
    create: 'products/create',
    update: 'products/update',
    listKey: 'products',
    byId: 'productId',
    sortable: BY_NAME_OR_DATE,
    refs: { providerId: { resource: 'providers', as: 'provider' } },
    writable: ['providerId', 'name', 'url', 'amount', ...COMMISSION_FIELDS, 'urlParams'],
  },
  /** Every posting (ADMIN): filters userType, userId, transactionType, boughtProductId; newest first. */
  transactions: { fetch: 'transactions/fetch', listKey: 'transactions', toRecord: transactionToRecord },
  /** Bought products (seed section 3); with `_id` the sale carries its postings. */
  sales: {
    fetch: 'bought_products/fetch',
    create: 'bought_products/create',
    listKey: 'boughtProducts',
    byId: '_id',
    writable: ['customerId', 'retailerId', 'productId', 'utmCode', 'merchantCode'],
    toRecord: saleToRecord,
  },
  /** The caller's own postings; the balances come beside them in the list's `meta.wallet`. */
  wallet: { fetch: 'wallet/fetch', listKey: 'transactions', toRecord: transactionToRecord },
  masterDistributors: users(UserType.MASTER_DISTRIBUTOR),
  distributors: users(UserType.DISTRIBUTOR),
  retailers: users(UserType.RETAILER),
  customers: users(UserType.CUSTOMER),
  /** Employees; the create form may make another admin instead (`role`, ADMIN only: issue 43). */
  employees: {
    ...users(UserType.EMPLOYEE),
    toBody: (data, action) => userToBody(staffTypeOf(data, action), data, action),
  },
  /** Onboarding applications (staff review); with `_id` the one lead carries every section. */
  leads: { fetch: 'leads/fetch', listKey: 'leads', byId: '_id' },
  /** The audit trail (ADMIN), newest first; filters userId, entity, action, from, to. */
  audit: { fetch: 'audit/fetch', listKey: 'audit' },
  /** Pending commands (maker-checker, issue 43), newest first; filter status. */
  approvals: { fetch: 'approvals/fetch', listKey: 'approvals' },
  /** Every delivery of a notification (ADMIN), newest first; filters status, channel. */
  notifications: { fetch: 'notifications/fetch', listKey: 'notifications' },
  /** Integrators' webhook endpoints (ADMIN); create answers the secret, once. */
  webhooks: {
    fetch: 'webhooks/fetch',
    create: 'webhooks/create',
    update: 'webhooks/update',
    listKey: 'webhooks',
    writable: ['url', 'events'],
  },
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
  /** POST leads/create (public, multipart) -> the new lead's id and the server's thank-you message */
  createLead(form: FormData): Promise<{ id: string; message?: string }>;
  /** POST leads/approve/{id} -> the server's message ('Application approved') */
  approveLead(id: Identifier, body: ApproveLeadInput): Promise<{ message?: string }>;
  /** POST leads/reject/{id} {reason} -> the server's message ('Application rejected') */
  rejectLead(id: Identifier, reason: string): Promise<{ message?: string }>;
  /** GET leads/{id}/picture|document with the token -> the file (staff only) */
  getLeadFile(id: Identifier, file: 'picture' | 'document'): Promise<Blob>;
  /**
   * POST payusprint/saving_account | payusprint/current_account (seed section 7) -> the account-opening URL, the
   * utmCode after its last '=' and the partner's merchantCode. Record the sale with `create('sales', ...)`.
   */
  openAccount(call: PartnerCall, body: AccountOpeningBody, options?: CallOptions): Promise<AccountOpening>;
  /**
   * GET bought_products/receipt/{id}?format=html|pdf&lang=en|hi with the token -> the sale's receipt as a file, the
   * page or the PDF in `lang`.
   */
  getSaleReceipt(id: Identifier, format: 'html' | 'pdf', lang?: 'en' | 'hi'): Promise<Blob>;
  /** GET bought_products/opening/{id} -> the partner's account-opening URL of a PENDING sale (409 otherwise). */
  getOpeningUrl(id: Identifier, options?: CallOptions): Promise<string>;
  /** POST wallet/settle (ADMIN): clearing -> available for one user ({ userId }), or everyone ({ all: true }) without an id. */
  settleWallets(userId?: string): Promise<{ result: SettleResult; message?: string }>;
  /**
   * POST wallet/payout (ADMIN, EMPLOYEE): money paid to the user's bank; the reference makes a repeat harmless.
   * A payout that needs a second person answers 202 with the pending command: `pending` is its id, and no
   * `data` (nothing moved).
   */
  recordPayout(input: PayoutBody): Promise<{ data?: TransactionRecord; pending?: string; message?: string }>;
  /**
   * POST wallet/adjust (ADMIN, EMPLOYEE): a signed correction of a user's available balance with a reason. It always
   * waits for a second admin: 202 with the pending command, whose id is `pending`.
   */
  adjustWallet(input: AdjustBody): Promise<{ pending?: string; message?: string }>;
  /**
   * POST approvals/approve/{id} {otp?} (ADMIN, neither the maker nor the one it is for) -> the server's message, and
   * for an admin creation or password reset the one-time password, given this once to the checker. `otp`: the
   * checker's current code, when its second step is on (step-up).
   */
  approveCommand(id: Identifier, otp?: string): Promise<{ message?: string; oneTimePassword?: string }>;
  /** POST approvals/reject/{id} {reason, otp?} (ADMIN, neither the maker nor the one it is for) -> the server's message */
  rejectCommand(id: Identifier, reason: string, otp?: string): Promise<{ message?: string }>;
  /** GET approvals/admins -> how many admins the network has (one: nobody can check that admin's commands). */
  getAdminCount(): Promise<number>;
  /** POST account/promote/{id} {reason} (ADMIN): making an employee an admin waits for another admin (202). */
  promoteToAdmin(id: Identifier, reason: string): Promise<{ pending?: string; message?: string }>;
  /** GET account/fetch?_id= of the signed-in person -> its own record, with `mfaEnabled` and `mfaSetupRequired`. */
  getOwnAccount(id: string): Promise<WireUser>;
  /** POST account/mfa/setup -> a new TOTP secret (base32) and its otpauth:// URI, not on yet. */
  startSecondStep(): Promise<MfaSetupResult>;
  /** POST account/mfa/enable {otp} -> the ten recovery codes (shown once) and the server's message. */
  enableSecondStep(otp: string): Promise<{ recoveryCodes: string[]; message?: string }>;
  /** POST account/mfa/disable {otp} or {recoveryCode} -> the server's message. */
  disableSecondStep(proof: { otp: string } | { recoveryCode: string }): Promise<{ message?: string }>;
  /** GET account/sessions -> one's own sessions, the current one marked. */
  getSessions(): Promise<WireSession[]>;
  /** POST account/sessions/revoke/{id} -> the server's message ('Session ended'). */
  endSession(id: string): Promise<{ message?: string }>;
  /** POST webhooks/create {url, events} -> the endpoint's secret (shown this once) and the server's message. */
  createWebhook(input: { url: string; events: string[] }): Promise<{ secret: string; message?: string }>;
  /** POST webhooks/delete/{id} -> the server's message. */
  deleteWebhook(id: Identifier): Promise<{ message?: string }>;
  /** POST notifications/retry/{id} -> the server's message (Retry now). */
  retryNotification(id: Identifier): Promise<{ message?: string }>;
  /** GET notifications/preferences -> one's own language and channels. */
  getNotificationPreferences(): Promise<NotificationPreferences>;
  /** POST notifications/preferences {language?, email?, sms?} -> the choices saved, and the server's message. */
  saveNotificationPreferences(
    input: Partial<NotificationPreferences>,
  ): Promise<{ result: NotificationPreferences; message?: string }>;
  /** GET report/commissions -> result.commissions (the caller's network). */
  getCommissionReport(): Promise<CommissionReport>;
  /** GET report/trends?days -> the caller's network's last `days` days, oldest first (issue 55's charts). */
  getTrends(days: number): Promise<TrendDay[]>;
  /** GET report/top?month&limit -> the month's top retailers of the caller's network by their own commission. */
  getTopRetailers(month: string, limit: number): Promise<TopRetailer[]>;
  /** GET report/products?month -> the month's sales per product in the caller's network. */
  getProductSales(month: string): Promise<ProductSales[]>;
  /** POST import/{kind} (multipart: file, dryRun, mode) -> the job's id (a dry run unless dryRun is 'false'). */
  startImport(kind: ImportKind, form: FormData): Promise<{ id: string }>;
  /** GET import/fetch/{id}?errorsPage&errorsLimit -> the job: status, counts, a page of its kept row errors. */
  getImport(id: string, errors?: { page: number; perPage: number }): Promise<WireImportJob>;
  /** GET import/template/{kind} -> the kind's CSV template. */
  getImportTemplate(kind: ImportKind): Promise<Blob>;
  /** GET books/fetch (ADMIN): the latest reconcile run, the caller's wallet, TDS payable, what wallets owe. */
  getBooks(): Promise<BooksFetchResult>;
  /** POST books/reconcile (ADMIN): proves the ledger now; the run as recorded. */
  runReconcile(): Promise<ReconcileRun>;
  /** GET books/settlePreview (ADMIN): what settling everyone would move now, and the tax it would withhold. */
  getSettlePreview(): Promise<SettlePreview>;
  /** GET tds/fetch?fy&quarter: the quarter's deductees. */
  getTdsQuarter(period: TdsPeriod): Promise<TdsFetchResult>;
  /** GET tds/deposits?fy&quarter: the challans dated in the quarter, and TDS payable now. */
  getTdsDeposits(period: TdsPeriod): Promise<TdsDepositsResult>;
  /** POST tds/deposit (ADMIN) -> the server's message ('TDS deposit recorded', or that it already was). */
  recordTdsDeposit(input: TdsDepositBody): Promise<{ message?: string }>;
  /** GET tds/quarters: the caller's own quarters with commission or tax (a tier user's My TDS). */
  getTdsQuarters(): Promise<TdsQuartersResult>;
  /**
   * A file the API answers (tds/fetch?format=csv, tds/certificate?format=pdf&lang=en|hi, import/fetch/{id}?format=csv),
   * with the token.
   */
  getFile(path: string, query: Record<string, string>): Promise<Blob>;
  /** GET statements/fetch?userId&month (YYYY-MM) -> the month's statement (a tier user's own; staff any). */
  getStatement(userId: string, month: string): Promise<Statement>;
  /** GET statements/fetch?userId&month&format=csv|pdf&lang=en|hi -> the statement as a file (the PDF in `lang`). */
  getStatementFile(userId: string, month: string, format: 'csv' | 'pdf', lang?: 'en' | 'hi'): Promise<Blob>;
}

/** A quarter of India's financial year: `fy` like 2026-27, `quarter` Q1 (April to June) to Q4. */
export interface TdsPeriod {
  fy: string;
  quarter: string;
}

export interface TdsDepositBody {
  bsrCode: string;
  challanSerial: string;
  /** YYYY-MM-DD. */
  date: string;
  /** Rupees, as typed. */
  amount: string;
}

export type AccountOpeningBody = Partial<AccountOpeningInput>;

/** What a custom call may be given: `signal` aborts it (the Select Product modal's Cancel). */
export interface CallOptions {
  signal?: AbortSignal;
}

/**
 * `create('sales', { data, meta })`: `idempotencyKey` goes out as the `Idempotency-Key` header (the same key
 * answers the first sale), `signal` aborts the call.
 */
export interface SaleCreateMeta extends CallOptions {
  idempotencyKey?: string;
}

export interface AccountOpening {
  url: string;
  utmCode: string;
  merchantCode: string;
}

/**
 * `wallet/adjust`: the user, signed rupees as typed ('-250.50' is a debit), the note the statement shows and the
 * internal reason only staff see.
 */
export interface AdjustBody {
  userId: string;
  amount: string;
  note: string;
  reason: string;
}

export interface PayoutBody {
  userId: string;
  /** Rupees, as typed (at most two decimals). */
  amount: string | number;
  reference: string;
}

export interface ApproveLeadInput {
  masterDistributorId: string;
  /** Required for retailer leads. */
  distributorId?: string;
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

const toRecord = (item: unknown, endpoint?: Endpoint): RaRecord => {
  if (endpoint?.toRecord) return endpoint.toRecord(item);
  const row = item as RaRecord & { _id?: Identifier };
  const record: RaRecord = { ...row, id: row._id ?? row.id };
  for (const [field, { as }] of Object.entries(endpoint?.refs ?? {})) {
    const ref = row[field] as { _id?: Identifier; name?: string } | null | undefined;
    if (ref && typeof ref === 'object') {
      record[field] = ref._id;
      record[as] = { id: ref._id, name: ref.name };
    }
  }
  return record;
};

/** The fields of `data` that the endpoint writes (all of them when it names none). */
const writableBody = (endpoint: Endpoint, data: Record<string, unknown>) => {
  if (!endpoint.writable) return { ...endpoint.fixed, ...data };
  const body: Record<string, unknown> = { ...endpoint.fixed };
  for (const field of endpoint.writable) if (data[field] !== undefined) body[field] = data[field];
  return body;
};

type ListResult = Record<string, unknown> & { totalCounts?: number };

export const createDataProvider = (http: HttpClient = httpClient): AppDataProvider => {
  /** One server call: `page`/`limit` as given (1-based, limit at most MAX_PAGE_SIZE). */
  const fetchPage = async (
    resource: string,
    query: Record<string, unknown>,
  ): Promise<{ data: RaRecord[]; total: number; meta?: Record<string, unknown> }> => {
    const endpoint = endpointOf(resource);
    const { json } = await http<Envelope<ListResult> & { totalCounts?: number }>(
      apiUrl(`${endpoint.fetch}${toQuery({ ...endpoint.fixed, ...query })}`),
    );
    const { [endpoint.listKey]: list, totalCounts, ...rest } = json.result ?? {};
    const items = (list ?? []) as unknown[];
    const total = totalCounts ?? json.totalCounts ?? items.length;
    const data = items.map((item) => toRecord(item, endpoint));
    // What the answer carries beside the page (wallet/fetch: the wallet's balances) reaches the list as `meta`.
    return Object.keys(rest).length > 0 ? { data, total, meta: rest } : { data, total };
  };

  /**
   * react-admin's getList params -> `page`, `limit`, `searchText` (from `q`), `sort`/`order` on the columns the
   * server sorts by, and the remaining filters as they are (`stateId`, `districtId`, `providerId`...).
   * A page larger than the server's limit (the export asks for 1000 rows) is read in server pages.
   */
  const fetchList = async (
    resource: string,
    params: Partial<GetListParams>,
    extra: Record<string, unknown> = {},
  ) => {
    const endpoint = endpointOf(resource);
    const { q, ...filter } = (params.filter ?? {}) as Record<string, unknown>;
    const sort = params.sort && endpoint.sortable?.includes(params.sort.field) ? params.sort : undefined;
    const query = {
      searchText: q,
      sort: sort?.field,
      order: sort?.order,
      ...filter,
      ...extra,
    };
    const page = params.pagination?.page;
    const perPage = params.pagination?.perPage;
    if (!page || !perPage || perPage <= MAX_PAGE_SIZE)
      return fetchPage(resource, { page, limit: perPage, ...query });

    const first = (page - 1) * perPage;
    const data: RaRecord[] = [];
    let total = 0;
    let meta: Record<string, unknown> | undefined;
    for (let serverPage = Math.floor(first / MAX_PAGE_SIZE) + 1; ; serverPage++) {
      const chunk = await fetchPage(resource, { page: serverPage, limit: MAX_PAGE_SIZE, ...query });
      total = chunk.total;
      meta = chunk.meta;
      const offset = (serverPage - 1) * MAX_PAGE_SIZE;
      data.push(...chunk.data.slice(Math.max(0, first - offset)));
      if (data.length >= perPage || chunk.data.length < MAX_PAGE_SIZE || offset + MAX_PAGE_SIZE >= total)
        break;
    }
    return meta ? { data: data.slice(0, perPage), total, meta } : { data: data.slice(0, perPage), total };
  };

  /** One record through the endpoint's id filter (`_id`, or `productId` for products). */
  const findById = async (resource: string, id: Identifier): Promise<RaRecord | undefined> => {
    const endpoint = endpointOf(resource);
    const { data } = await fetchPage(resource, { [endpoint.byId ?? '_id']: id });
    return data.find((record) => String(record.id) === String(id));
  };

  const post = (path: string, body: unknown, options: HttpOptions = {}) =>
    http<Envelope<unknown>>(apiUrl(path), { ...options, method: 'POST', body: JSON.stringify(body) });

  const unsupported = (method: string) => () => Promise.reject(new Error(`${method} is not supported`));

  return {
    getList: (resource, params) => fetchList(resource, params) as never,

    async getOne(resource, params) {
      const record = await findById(resource, params.id);
      if (!record) throw new Error(MSG.notFound);
      return { data: record as never };
    },

    async getMany(resource, params) {
      const rows = await Promise.all(params.ids.map((id) => findById(resource, id)));
      return { data: rows.filter(Boolean) as never[] };
    },

    getManyReference: (resource, params) =>
      fetchList(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } }) as never,

    /** `meta.message` carries the server's message (the product screens show it). */
    async create(resource, params) {
      const endpoint = endpointOf(resource);
      if (!endpoint.create) throw new Error(`create is not supported for ${resource}`);
      const body = endpoint.toBody
        ? endpoint.toBody(params.data, 'create')
        : writableBody(endpoint, params.data);
      const { idempotencyKey, signal } = (params.meta ?? {}) as SaleCreateMeta;
      const { json } = await post(endpoint.create, body, {
        ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}),
        ...(signal ? { signal } : {}),
      });
      const result = json.result && typeof json.result === 'object' ? json.result : params.data;
      return { data: toRecord(result, endpoint) as never, meta: { message: json.message } };
    },

    async update(resource, params) {
      const endpoint = endpointOf(resource);
      if (!endpoint.update) throw new Error(`update is not supported for ${resource}`);
      const body = endpoint.toBody
        ? endpoint.toBody(params.data, 'update')
        : endpoint.writable
          ? writableBody(endpoint, params.data)
          : params.data;
      const { json } = await post(`${endpoint.update}/${encodeURIComponent(String(params.id))}`, body);
      const result =
        json.result && typeof json.result === 'object' ? json.result : { ...params.data, id: params.id };
      return { data: toRecord(result, endpoint) as never, meta: { message: json.message } };
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

    async createLead(form) {
      // FormData: httpClient leaves the multipart Content-Type (with its boundary) to fetch.
      const { json } = await http<Envelope<{ _id: string }>>(apiUrl('leads/create'), {
        method: 'POST',
        body: form,
      });
      return { id: json.result?._id, message: json.message };
    },

    async approveLead(id, body) {
      const { json } = await post(`leads/approve/${encodeURIComponent(String(id))}`, body);
      return { message: json.message };
    },

    async rejectLead(id, reason) {
      const { json } = await post(`leads/reject/${encodeURIComponent(String(id))}`, { reason });
      return { message: json.message };
    },

    /** The file as a Blob, through httpClient (the token, and a refusal as the normalised HttpError). */
    async startImport(kind, form) {
      // FormData: httpClient leaves the multipart Content-Type (with its boundary) to fetch.
      const { json } = await http<Envelope<{ _id: string }>>(apiUrl(`import/${kind}`), {
        method: 'POST',
        body: form,
      });
      return { id: json.result?._id };
    },

    async getImport(id, errors) {
      const query = errors ? { errorsPage: String(errors.page), errorsLimit: String(errors.perPage) } : {};
      const { json } = await http<Envelope<WireImportJob>>(
        apiUrl(`import/fetch/${encodeURIComponent(id)}${toQuery(query)}`),
      );
      if (!json.result) throw new Error(MSG.notFound);
      return json.result;
    },

    async getImportTemplate(kind) {
      const { blob } = await http(apiUrl(`import/template/${kind}`), { responseType: 'blob' });
      if (!blob) throw new Error(MSG.notFound);
      return blob;
    },

    async getLeadFile(id, file) {
      const { blob } = await http(apiUrl(`leads/${encodeURIComponent(String(id))}/${file}`), {
        responseType: 'blob',
      });
      if (!blob) throw new Error(MSG.notFound);
      return blob;
    },

    async getSaleReceipt(id, format, lang = 'en') {
      const { blob } = await http(
        apiUrl(`bought_products/receipt/${encodeURIComponent(String(id))}${toQuery({ format, lang })}`),
        { responseType: 'blob' },
      );
      if (!blob) throw new Error(SALES_MSG.saleNotFound);
      return blob;
    },

    async openAccount(call, body, options = {}) {
      const { json } = await post(`payusprint/${call}`, body, options);
      const answer = json.result as Partial<AccountOpeningResult> | undefined;
      const url = answer?.result?.data;
      const merchantCode = answer?.merchantCode;
      // A 200 without the URL or the code cannot be sold: refuse it as the server refuses an unreadable partner.
      if (typeof url !== 'string' || !url.includes('=') || typeof merchantCode !== 'string' || !merchantCode)
        throw new UnreadableAnswerError(SALES_MSG.partnerUnreadable);
      return { url, utmCode: utmCodeOf(url), merchantCode };
    },

    async getOpeningUrl(id, options = {}) {
      const { json } = await http<Envelope<{ url?: unknown }>>(
        apiUrl(`bought_products/opening/${encodeURIComponent(String(id))}`),
        options,
      );
      const url = json.result?.url;
      if (typeof url !== 'string' || !url) throw new UnreadableAnswerError(SALES_MSG.partnerUnreadable);
      return url;
    },

    async settleWallets(userId) {
      const { json } = await post('wallet/settle', userId ? { userId } : { all: true });
      return { result: json.result as SettleResult, message: json.message };
    },

    async recordPayout(input) {
      const { json } = await post('wallet/payout', input);
      const result = json.result as WireTransaction | WireCommand | undefined;
      if (result && result.status === 'PENDING') return { pending: result._id, message: json.message };
      return {
        data: result ? transactionToRecord(result as WireTransaction) : undefined,
        message: json.message,
      };
    },

    async adjustWallet(input) {
      const { json } = await post('wallet/adjust', input);
      const result = json.result as WireCommand | undefined;
      return { pending: result?._id, message: json.message };
    },

    async approveCommand(id, otp) {
      const { json } = await post(`approvals/approve/${encodeURIComponent(String(id))}`, otp ? { otp } : {});
      const oneTimePassword = (json.result as ApprovedCommand | undefined)?.oneTimePassword;
      return oneTimePassword ? { message: json.message, oneTimePassword } : { message: json.message };
    },

    async getAdminCount() {
      const { json } = await http<Envelope<{ admins: number }>>(apiUrl('approvals/admins'));
      if (typeof json.result?.admins !== 'number') throw new UnreadableAnswerError(MSG.notFound);
      return json.result.admins;
    },

    async promoteToAdmin(id, reason) {
      const { json } = await post(`account/promote/${encodeURIComponent(String(id))}`, { reason });
      return { pending: (json.result as WireCommand | undefined)?._id, message: json.message };
    },

    async rejectCommand(id, reason, otp) {
      const { json } = await post(`approvals/reject/${encodeURIComponent(String(id))}`, {
        reason,
        ...(otp ? { otp } : {}),
      });
      return { message: json.message };
    },

    async getOwnAccount(id) {
      const { json } = await http<Envelope<UserFetchResult>>(
        apiUrl(`account/fetch?_id=${encodeURIComponent(id)}`),
      );
      const user = json.result?.users?.[0];
      if (!user) throw new UnreadableAnswerError(MSG.notFound);
      return user;
    },

    async startSecondStep() {
      const { json } = await post('account/mfa/setup', {});
      const result = json.result as MfaSetupResult | undefined;
      if (!result) throw new UnreadableAnswerError(MSG.internalError);
      return result;
    },

    async enableSecondStep(otp) {
      const { json } = await post('account/mfa/enable', { otp });
      const result = json.result as RecoveryCodesResult | undefined;
      return { recoveryCodes: result?.recoveryCodes ?? [], message: json.message };
    },

    async disableSecondStep(proof) {
      const { json } = await post('account/mfa/disable', proof);
      return { message: json.message };
    },

    async getSessions() {
      const { json } = await http<Envelope<{ sessions: WireSession[] }>>(apiUrl('account/sessions'));
      return json.result?.sessions ?? [];
    },

    async endSession(id) {
      const { json } = await post(`account/sessions/revoke/${encodeURIComponent(id)}`, {});
      return { message: json.message };
    },

    async createWebhook(input) {
      const { json } = await post('webhooks/create', input);
      const secret = (json.result as { secret?: string } | undefined)?.secret;
      if (!secret) throw new UnreadableAnswerError(MSG.notFound);
      return { secret, message: json.message };
    },

    async deleteWebhook(id) {
      const { json } = await post(`webhooks/delete/${encodeURIComponent(String(id))}`, {});
      return { message: json.message };
    },

    async retryNotification(id) {
      const { json } = await post(`notifications/retry/${encodeURIComponent(String(id))}`, {});
      return { message: json.message };
    },

    async getNotificationPreferences() {
      const { json } = await http<Envelope<NotificationPreferences>>(apiUrl('notifications/preferences'));
      if (!json.result) throw new UnreadableAnswerError(MSG.notFound);
      return json.result;
    },

    async saveNotificationPreferences(input) {
      const { json } = await post('notifications/preferences', input);
      return { result: json.result as NotificationPreferences, message: json.message };
    },

    async getCommissionReport() {
      const { json } = await http<Envelope<{ commissions: CommissionReport }>>(apiUrl('report/commissions'));
      const commissions = json.result?.commissions;
      if (!commissions) throw new Error('No commission report');
      return commissions;
    },

    async getTrends(days) {
      const { json } = await http<Envelope<{ days: TrendDay[] }>>(
        apiUrl(`report/trends${toQuery({ days })}`),
      );
      return json.result?.days ?? [];
    },

    async getTopRetailers(month, limit) {
      const { json } = await http<Envelope<{ retailers: TopRetailer[] }>>(
        apiUrl(`report/top${toQuery({ month, limit })}`),
      );
      return json.result?.retailers ?? [];
    },

    async getProductSales(month) {
      const { json } = await http<Envelope<{ products: ProductSales[] }>>(
        apiUrl(`report/products${toQuery({ month })}`),
      );
      return json.result?.products ?? [];
    },

    async getBooks() {
      const { json } = await http<Envelope<BooksFetchResult>>(apiUrl('books/fetch'));
      if (!json.result) throw new UnreadableAnswerError(MSG.notFound);
      return json.result;
    },

    async runReconcile() {
      const { json } = await post('books/reconcile', {});
      if (!json.result) throw new UnreadableAnswerError(MSG.notFound);
      return json.result as ReconcileRun;
    },

    async getSettlePreview() {
      const { json } = await http<Envelope<SettlePreview>>(apiUrl('books/settlePreview'));
      if (!json.result) throw new UnreadableAnswerError(MSG.notFound);
      return json.result;
    },

    async getTdsQuarter(period) {
      const { json } = await http<Envelope<TdsFetchResult>>(apiUrl(`tds/fetch${toQuery({ ...period })}`));
      if (!json.result) throw new UnreadableAnswerError(MSG.notFound);
      return json.result;
    },

    async getTdsDeposits(period) {
      const { json } = await http<Envelope<TdsDepositsResult>>(
        apiUrl(`tds/deposits${toQuery({ ...period })}`),
      );
      if (!json.result) throw new UnreadableAnswerError(MSG.notFound);
      return json.result;
    },

    async recordTdsDeposit(input) {
      const { json } = await post('tds/deposit', input);
      return { message: json.message };
    },

    async getTdsQuarters() {
      const { json } = await http<Envelope<TdsQuartersResult>>(apiUrl('tds/quarters'));
      if (!json.result) throw new UnreadableAnswerError(MSG.notFound);
      return json.result;
    },

    async getFile(path, query) {
      const { blob } = await http(apiUrl(`${path}${toQuery(query)}`), { responseType: 'blob' });
      if (!blob) throw new Error(MSG.notFound);
      return blob;
    },

    async getStatement(userId, month) {
      const { json } = await http<Envelope<Statement>>(
        apiUrl(`statements/fetch${toQuery({ userId, month })}`),
      );
      if (!json.result) throw new Error(MSG.notFound);
      return json.result;
    },

    async getStatementFile(userId, month, format, lang = 'en') {
      const { blob } = await http(apiUrl(`statements/fetch${toQuery({ userId, month, format, lang })}`), {
        responseType: 'blob',
      });
      if (!blob) throw new Error(MSG.notFound);
      return blob;
    },
  };
};

/** A successful HTTP answer the panel cannot use (shown as a failure: 'Error: <message>'). */
export class UnreadableAnswerError extends Error {}

export const dataProvider = createDataProvider();
