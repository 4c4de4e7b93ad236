// The dashboard constants both sides use, without zod so the sign-in page can import them (schemas re-export them).
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
