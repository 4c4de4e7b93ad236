import { UserType } from './enums';

const { ADMIN, MASTER_DISTRIBUTOR, DISTRIBUTOR, RETAILER, EMPLOYEE } = UserType;

/**
 * The single role table (seed section 6). The panel's canAccess/menu and the server's guards both read it.
 * `list` = may open the screen / call the list endpoint; other actions are per resource.
 */
export const ROLE_TABLE = {
  dashboard: { list: [ADMIN, EMPLOYEE] },
  masterDistributors: { list: [ADMIN, EMPLOYEE], create: [ADMIN, EMPLOYEE], edit: [ADMIN, EMPLOYEE] },
  distributors: { list: [ADMIN, MASTER_DISTRIBUTOR, EMPLOYEE], create: [ADMIN], edit: [ADMIN, EMPLOYEE] },
  employees: { list: [ADMIN], create: [ADMIN], edit: [ADMIN] },
  retailers: {
    list: [ADMIN, MASTER_DISTRIBUTOR, DISTRIBUTOR, EMPLOYEE, RETAILER],
    create: [ADMIN],
    edit: [ADMIN, EMPLOYEE],
  },
  customers: {
    list: [ADMIN, EMPLOYEE, RETAILER],
    create: [ADMIN, EMPLOYEE, RETAILER],
    edit: [ADMIN, EMPLOYEE, RETAILER],
  },
  providers: { list: [ADMIN, EMPLOYEE], create: [ADMIN, EMPLOYEE], edit: [ADMIN, EMPLOYEE] },
  products: { list: [ADMIN, EMPLOYEE], create: [ADMIN, EMPLOYEE], edit: [ADMIN, EMPLOYEE] },
  transactions: { list: [ADMIN] },
  tehsils: { list: [ADMIN, EMPLOYEE], create: [ADMIN, EMPLOYEE], edit: [ADMIN, EMPLOYEE] },
  districts: { list: [ADMIN, EMPLOYEE], create: [ADMIN, EMPLOYEE], edit: [ADMIN, EMPLOYEE] },
  states: { list: [ADMIN, EMPLOYEE], create: [ADMIN, EMPLOYEE], edit: [ADMIN, EMPLOYEE] },
  /** Update Status on tier users and customers. */
  userStatus: { edit: [ADMIN] },
} as const satisfies Record<string, Partial<Record<RoleAction, readonly UserType[]>>>;

export type RoleAction = 'list' | 'create' | 'edit';
export type RoleResource = keyof typeof ROLE_TABLE;

export function can(role: UserType | undefined | null, resource: string, action: string): boolean {
  if (role === undefined || role === null) return false;
  const entry = (ROLE_TABLE as Record<string, Partial<Record<string, readonly UserType[]>>>)[resource];
  // Reading a list also covers show/export; unknown resources and actions are refused.
  const key = action === 'show' || action === 'export' || action === 'read' ? 'list' : action;
  const allowed = entry?.[key];
  return !!allowed && allowed.includes(role);
}
