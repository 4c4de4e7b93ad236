import type { UserStatus, UserType } from './enums';

/** Success envelope of every call: `{ result, message? }`. */
export interface Envelope<T> {
  result: T;
  message?: string;
}

/** Failure body of every call. */
export interface ErrorBody {
  message: string;
  errors?: { msg: string; param: string }[];
}

export interface NamedRef {
  _id: string;
  name: string;
}

/** A user in the seed's nested wire shape (seed section 3, ARCHITECTURE.md wire contract). */
export interface WireUser {
  _id: string;
  name: string;
  email: { address: string | null };
  mobile: { number: string | null };
  userName: { id: string };
  type: UserType;
  status: UserStatus;
  districtId: string | null;
  tehsilId: string | null;
  district: NamedRef[];
  tehsil: NamedRef[];
  wallet: { balance: number; clearingBalance: number };
  /** ISO time of the user's own password choice; null until the initial password is replaced. */
  passwordUpdatedAt: string | null;
  createdAt: string;
  /**
   * Master distributors: `{ isMaster, distributorCode, masterDistributorCommission }`; distributors:
   * `{ isMaster: false, masterDistributorId }`; retailers: the looked-up distributor `[{ _id, name }]`.
   */
  distributor?: DistributorInfo | NamedRef[];
  /** Retailers: their distributor and, for the edit form, that distributor's master distributor. */
  retailer?: { distributorId: string | null; masterDistributorId: string | null } | NamedRef[];
  /** Customers: the Aadhar number only masked (`XXXXXXXX1234`). */
  customer?: { aadharId: string | null; panId: string | null; retailerId: string | null };
  /** Looked-up parents for the list columns: master distributor on distributor and retailer rows. */
  master_distributor?: NamedRef[];
}

export interface DistributorInfo {
  isMaster: boolean;
  distributorCode?: string | null;
  masterDistributorCommission?: string | null;
  masterDistributorId?: string | null;
}

export interface LoginResult {
  token: string;
  user: WireUser;
}

export interface UserFetchResult {
  users: WireUser[];
  totalCounts: number;
}

/** Keys of `report/userCounts` -> result.userReport[0] (seed section 3, Dashboard stats). */
export const USER_COUNT_KEYS = [
  'ACTIVE_DISTRIBUTORS',
  'ACTIVE_EMPLOYEES',
  'ACTIVE_MASTER_DISTRIBUTORS',
  'ACTIVE_RETAILERS',
  'CUSTOMER',
  'DISTRIBUTOR',
  'EMPLOYEE',
  'MASTER_DISTRIBUTOR',
  'RETAILER',
] as const;
export type UserCountKey = (typeof USER_COUNT_KEYS)[number];
export type UserCounts = Record<UserCountKey, number>;

/** Dashboard tile labels, in the seed's order, with the count each shows. */
export const DASHBOARD_TILES: { label: string; key: UserCountKey }[] = [
  { label: 'Total Active Distributors', key: 'ACTIVE_DISTRIBUTORS' },
  { label: 'Active Employees', key: 'ACTIVE_EMPLOYEES' },
  { label: 'Active Master Distributors', key: 'ACTIVE_MASTER_DISTRIBUTORS' },
  { label: 'Active Retailers', key: 'ACTIVE_RETAILERS' },
  { label: 'Total Customers', key: 'CUSTOMER' },
  { label: 'Distributors', key: 'DISTRIBUTOR' },
  { label: 'Employees', key: 'EMPLOYEE' },
  { label: 'Master Distributors', key: 'MASTER_DISTRIBUTOR' },
  { label: 'Retailers', key: 'RETAILER' },
];

export interface WireState {
  _id: string;
  name: string;
  createdAt: string;
}
/** `stateId` is populated with the state's name for the list column. */
export interface WireDistrict {
  _id: string;
  name: string;
  stateId: NamedRef;
  createdAt: string;
}
export interface WireTehsil {
  _id: string;
  name: string;
  districtId: NamedRef;
  stateId: NamedRef;
  createdAt: string;
}
export interface WireProvider {
  _id: string;
  name: string;
  createdAt: string;
}
/** Amount in rupees and commissions in percent, as JSON numbers with at most two decimals. */
export interface WireProduct {
  _id: string;
  name: string;
  providerId: NamedRef;
  amount: number;
  adminCommission: number;
  masterDistributorCommission: number;
  distributorCommission: number;
  retailerCommission: number;
  customerCommission: number;
  url: string;
  urlParams: { reqType: 'GET' | 'POST'; data: string };
  createdAt: string;
}

// Selling and the ledger (issue 9) -------------------------------------------------------------------------

/** `payusprint/*` answer (seed section 7): the account-opening URL and the partner's merchant code. */
export interface AccountOpeningResult {
  result: { data: string };
  merchantCode: string;
}

/** One tier's share of a sale, frozen when the sale is recorded. A missing tier's share goes to admin. */
export interface WireShare {
  tier: 'ADMIN' | 'MASTER_DISTRIBUTOR' | 'DISTRIBUTOR' | 'RETAILER' | 'CUSTOMER';
  /** Percent of the amount (two decimals). */
  percent: number;
  /** Rupees. */
  amount: number;
  /** Who receives it (admin when the tier is missing). */
  user: NamedRef;
}

/** A bought product (seed section 3) with the amount, commissions and split frozen when it was recorded. */
export interface WireSale {
  _id: string;
  status: 'PENDING' | 'CONFIRMED' | 'FAILED' | 'REVERSED';
  utmCode: string;
  merchantCode: string;
  accountType: string | null;
  /** Rupees. */
  amount: number;
  split: WireShare[];
  customerId: NamedRef;
  retailerId: NamedRef | null;
  productId: NamedRef & { providerId: NamedRef };
  soldBy: NamedRef;
  createdAt: string;
  confirmedAt: string | null;
  failedAt: string | null;
  reversedAt: string | null;
  /** Only when one sale is fetched by `_id`: its postings, oldest first. */
  postings?: WireTransaction[];
}

/** The populated user of a transaction row (seed section 3, Transaction: userId populated). */
export interface WireTransactionUser {
  _id: string;
  name: string;
  email: { address: string | null };
  mobile: { number: string | null };
  type: UserType;
}

/** A posting: one immutable change of one wallet. Amounts and balances in rupees. */
export interface WireTransaction {
  _id: string;
  userId: WireTransactionUser;
  amount: number;
  transactionType: 'CREDIT' | 'DEBIT';
  /** Which balance moved. */
  balanceType: 'CLEARING' | 'AVAILABLE';
  kind: 'COMMISSION' | 'SETTLEMENT' | 'REVERSAL' | 'PAYOUT';
  status: 'CLEARING' | 'SETTLED' | 'REVERSED' | 'PAID';
  /** The wallet's balances right after this posting. */
  balance: number;
  clearingBalance: number;
  /** Commission postings: whose share it is. */
  tier: WireShare['tier'] | null;
  boughtProductId: string | null;
  /** Settlements and reversals: the commission posting they settle or reverse. */
  refPostingId: string | null;
  /** Payouts: the reference given by the admin. */
  reference: string | null;
  createdAt: string;
}

export interface WireWallet {
  balance: number;
  clearingBalance: number;
}

/** `GET wallet/fetch`: the caller's own wallet and postings. */
export interface WalletFetchResult {
  wallet: WireWallet;
  transactions: WireTransaction[];
  totalCounts: number;
}

/** `GET report/commissions`: commissions credited in the caller's network (rupees). */
export interface CommissionReport {
  today: number;
  month: number;
  clearing: number;
}

/** `POST wallet/settle` answer. */
export interface SettleResult {
  settled: number;
  amount: number;
  users: number;
}

/** `GET ledger/reconcile` and `npm run reconcile`. */
export interface ReconcileReport {
  ok: boolean;
  checkedAt: string;
  sales: { confirmed: number; reversed: number };
  postings: number;
  wallets: number;
  /** Sum of every wallet, rupees. */
  totals: { balance: number; clearingBalance: number };
  breaks: { check: string; detail: string }[];
}

// The audit trail (issue 10) ----------------------------------------------------------------------------------

/** Who made an audited change: a user (`_id`, `type`), or the partner, the system or the public (no `_id`). */
export interface WireAuditActor {
  _id: string | null;
  name: string;
  type: UserType | null;
  kind: 'USER' | 'PARTNER' | 'SYSTEM' | 'PUBLIC';
}

/** One audit row: the changed fields before and after (personal data masked), newest first in lists. */
export interface WireAuditEntry {
  _id: string;
  actor: WireAuditActor;
  action: string;
  entity: string;
  entityId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
  createdAt: string;
}
