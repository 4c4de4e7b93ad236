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
