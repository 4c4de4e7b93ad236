/** User types as the seed numbers them (section 3, Enumerations). The wire carries the number. */
export const UserType = {
  ADMIN: 0,
  CUSTOMER: 1,
  MASTER_DISTRIBUTOR: 2,
  DISTRIBUTOR: 3,
  RETAILER: 4,
  EMPLOYEE: 5,
} as const;
export type UserType = (typeof UserType)[keyof typeof UserType];
export type UserTypeName = keyof typeof UserType;

export const USER_TYPE_NAMES: Record<UserType, UserTypeName> = {
  0: 'ADMIN',
  1: 'CUSTOMER',
  2: 'MASTER_DISTRIBUTOR',
  3: 'DISTRIBUTOR',
  4: 'RETAILER',
  5: 'EMPLOYEE',
};

export const ALL_USER_TYPES = Object.values(UserType) as UserType[];

export const isUserType = (value: unknown): value is UserType =>
  typeof value === 'number' && (ALL_USER_TYPES as number[]).includes(value);

/** Staff run the whole network; tier users see only their own branch of it. */
export const STAFF_TYPES: readonly UserType[] = [UserType.ADMIN, UserType.EMPLOYEE];
export const TIER_TYPES: readonly UserType[] = [
  UserType.MASTER_DISTRIBUTOR,
  UserType.DISTRIBUTOR,
  UserType.RETAILER,
];

export const UserStatus = { ACTIVE: 'ACTIVE', INACTIVE: 'INACTIVE' } as const;
export type UserStatus = (typeof UserStatus)[keyof typeof UserStatus];
export const USER_STATUSES: readonly UserStatus[] = ['ACTIVE', 'INACTIVE'];

/** Seed section 4: the toggle turns the first value into the second and anything else into the first. */
export const toggledStatus = (current: UserStatus): UserStatus =>
  current === USER_STATUSES[0] ? USER_STATUSES[1] : USER_STATUSES[0];

/** A bought product's life (seed section 3, Bought product): recorded PENDING, then the partner decides. */
export const SaleStatus = {
  PENDING: 'PENDING',
  CONFIRMED: 'CONFIRMED',
  FAILED: 'FAILED',
  REVERSED: 'REVERSED',
} as const;
export type SaleStatus = (typeof SaleStatus)[keyof typeof SaleStatus];
export const SALE_STATUSES = Object.values(SaleStatus) as SaleStatus[];

/** Seed section 3, Enumerations: transaction types. */
export const TransactionType = { CREDIT: 'CREDIT', DEBIT: 'DEBIT' } as const;
export type TransactionType = (typeof TransactionType)[keyof typeof TransactionType];
export const TRANSACTION_TYPES = Object.values(TransactionType) as TransactionType[];

/** Which of a wallet's two balances a posting moves. */
export const WalletBalance = { CLEARING: 'CLEARING', AVAILABLE: 'AVAILABLE' } as const;
export type WalletBalance = (typeof WalletBalance)[keyof typeof WalletBalance];

/**
 * What a posting is: a commission credited to clearing (status CLEARING), a settlement moving it to available
 * (SETTLED, two postings), a reversal taking it back (REVERSED), a payout to the user's bank (PAID), or tax withheld
 * from a settled commission (TDS: WITHHELD, and REVERSED when a reversal gives it back).
 */
export const PostingKind = {
  COMMISSION: 'COMMISSION',
  SETTLEMENT: 'SETTLEMENT',
  REVERSAL: 'REVERSAL',
  PAYOUT: 'PAYOUT',
  /** Tax (section 194H) withheld from a settled commission (WITHHELD), or returned when it is reversed (REVERSED). */
  TDS: 'TDS',
  /** A manual correction an admin approved (maker-checker): a credit or a debit of available, with a reason. */
  ADJUSTMENT: 'ADJUSTMENT',
} as const;
export type PostingKind = (typeof PostingKind)[keyof typeof PostingKind];

export const PostingStatus = {
  CLEARING: 'CLEARING',
  SETTLED: 'SETTLED',
  REVERSED: 'REVERSED',
  PAID: 'PAID',
  WITHHELD: 'WITHHELD',
  ADJUSTED: 'ADJUSTED',
} as const;
export type PostingStatus = (typeof PostingStatus)[keyof typeof PostingStatus];
export const POSTING_STATUSES = Object.values(PostingStatus) as PostingStatus[];

/** The partner's callback events. */
export const PROVIDER_EVENTS = ['account.opened', 'account.failed', 'account.reversed'] as const;
export type ProviderEvent = (typeof PROVIDER_EVENTS)[number];
