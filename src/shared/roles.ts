import { UserType } from './enums';

const { ADMIN, MASTER_DISTRIBUTOR, DISTRIBUTOR, RETAILER, EMPLOYEE } = UserType;

/**
 * The single role table (seed section 6). The panel's canAccess/menu and the server's guards both read it.
 * `list` = may open the screen; `read` = may read through the API (defaults to `list`); `create`, `edit`.
 */
export const ROLE_TABLE = {
  dashboard: { list: [ADMIN, EMPLOYEE] },
  // `read` (API reads, always bounded by the caller's network) is wider than `list` (the screen in the
  // menu): a master distributor reads itself, a tier user the customers of its network.
  masterDistributors: {
    list: [ADMIN, EMPLOYEE],
    read: [ADMIN, EMPLOYEE, MASTER_DISTRIBUTOR, DISTRIBUTOR, RETAILER],
    create: [ADMIN, EMPLOYEE],
    edit: [ADMIN, EMPLOYEE],
  },
  distributors: {
    list: [ADMIN, MASTER_DISTRIBUTOR, EMPLOYEE],
    read: [ADMIN, EMPLOYEE, MASTER_DISTRIBUTOR, DISTRIBUTOR, RETAILER],
    create: [ADMIN],
    edit: [ADMIN, EMPLOYEE],
  },
  employees: { list: [ADMIN], create: [ADMIN], edit: [ADMIN] },
  /**
   * Admins (issue 51): an admin asks for another admin (a new one, or an employee promoted) and for the reset of
   * another admin's password or second step (edit); each is a command a second admin approves. Not listed.
   */
  admins: { create: [ADMIN], edit: [ADMIN] },
  retailers: {
    list: [ADMIN, MASTER_DISTRIBUTOR, DISTRIBUTOR, EMPLOYEE, RETAILER],
    create: [ADMIN],
    edit: [ADMIN, EMPLOYEE],
  },
  customers: {
    list: [ADMIN, EMPLOYEE, RETAILER],
    read: [ADMIN, EMPLOYEE, MASTER_DISTRIBUTOR, DISTRIBUTOR, RETAILER],
    create: [ADMIN, EMPLOYEE, RETAILER],
    edit: [ADMIN, EMPLOYEE, RETAILER],
  },
  // A retailer reads providers and products to sell them (Select Product), without the catalogue screens.
  providers: {
    list: [ADMIN, EMPLOYEE],
    read: [ADMIN, EMPLOYEE, RETAILER],
    create: [ADMIN, EMPLOYEE],
    edit: [ADMIN, EMPLOYEE],
  },
  products: {
    list: [ADMIN, EMPLOYEE],
    read: [ADMIN, EMPLOYEE, RETAILER],
    create: [ADMIN, EMPLOYEE],
    edit: [ADMIN, EMPLOYEE],
  },
  /** Bought products: Select Product records one (create); the Sales screen lists them (a retailer its own). */
  sales: { list: [ADMIN, EMPLOYEE, RETAILER], create: [ADMIN, EMPLOYEE, RETAILER] },
  /**
   * A sale's receipt (issue 43): the retailer who made the sale, its distributor and master distributor, and staff;
   * the route bounds it by the caller's network as every sale read (another's answers 404).
   */
  saleReceipts: { read: [ADMIN, EMPLOYEE, MASTER_DISTRIBUTOR, DISTRIBUTOR, RETAILER] },
  transactions: { list: [ADMIN] },
  /** My wallet: the tier users' own balance and postings (any panel user may read its own through the API). */
  wallet: {
    list: [MASTER_DISTRIBUTOR, DISTRIBUTOR, RETAILER],
    read: [ADMIN, EMPLOYEE, MASTER_DISTRIBUTOR, DISTRIBUTOR, RETAILER],
  },
  /** Settlement and reconciliation. */
  ledger: { list: [ADMIN], edit: [ADMIN] },
  /** The Books screen (issue 43): the latest reconcile and its Run, the company's balances, settle all's preview. */
  books: { list: [ADMIN], edit: [ADMIN] },
  /** TDS (section 194H): the quarter's deductees for staff, deposits by ADMIN (issue 43). */
  tds: { list: [ADMIN, EMPLOYEE], edit: [ADMIN] },
  /**
   * A deductee's quarters and certificates: staff read any, a tier user its own (checked by the route); a tier user's
   * own TDS screen lists them (issue 51).
   */
  tdsCertificate: {
    list: [MASTER_DISTRIBUTOR, DISTRIBUTOR, RETAILER],
    read: [ADMIN, EMPLOYEE, MASTER_DISTRIBUTOR, DISTRIBUTOR, RETAILER],
  },
  /**
   * Monthly statements (issue 43): a tier user opens its own from the menu; staff read any tier user's in their
   * network from its row (the route checks whose).
   */
  statements: {
    list: [MASTER_DISTRIBUTOR, DISTRIBUTOR, RETAILER],
    read: [ADMIN, EMPLOYEE, MASTER_DISTRIBUTOR, DISTRIBUTOR, RETAILER],
  },
  /** Another user's statement (the row action on the tier-user lists); anyone else reads only its own. */
  otherStatements: { read: [ADMIN, EMPLOYEE] },
  /**
   * Maker-checker (issue 43): who may make a payout or a manual adjustment. An employee's payout, a payout above
   * PAYOUT_APPROVAL_ABOVE_RUPEES and every adjustment wait as pending commands for an admin who did not make them.
   */
  payouts: { create: [ADMIN, EMPLOYEE] },
  adjustments: { create: [ADMIN, EMPLOYEE] },
  /**
   * Pending commands: admins list and decide every one; an employee lists the ones it made (the server scopes
   * approvals/fetch by the session) and records payouts there, and decides none.
   */
  approvals: { list: [ADMIN, EMPLOYEE], edit: [ADMIN] },
  tehsils: { list: [ADMIN, EMPLOYEE], create: [ADMIN, EMPLOYEE], edit: [ADMIN, EMPLOYEE] },
  districts: { list: [ADMIN, EMPLOYEE], create: [ADMIN, EMPLOYEE], edit: [ADMIN, EMPLOYEE] },
  states: { list: [ADMIN, EMPLOYEE], create: [ADMIN, EMPLOYEE], edit: [ADMIN, EMPLOYEE] },
  /** Onboarding applications: review (list) and decide (edit). Approving also needs the create right. */
  leads: { list: [ADMIN, EMPLOYEE], edit: [ADMIN, EMPLOYEE] },
  /**
   * Bulk import from CSV (issue 45): the Import screen is an admin's, and only an admin imports (create); an
   * employee may run dry runs and follow them through the API (read).
   */
  imports: { list: [ADMIN], read: [ADMIN, EMPLOYEE], create: [ADMIN] },
  /** The audit trail (read only: nobody changes it). */
  audit: { list: [ADMIN] },
  /** Update Status on tier users and customers. */
  userStatus: { edit: [ADMIN] },
  /** Issue 55: integrators' webhook endpoints, and every delivery (e-mail, SMS, webhook) with Retry now. */
  webhooks: { list: [ADMIN], create: [ADMIN], edit: [ADMIN] },
  notifications: { list: [ADMIN], edit: [ADMIN] },
  /**
   * The dashboard's top retailers by commission (issue 55): staff, master distributors and distributors, each over
   * its network. A retailer has no retailers under it: the chart is not drawn for it and `report/top` refuses it.
   */
  topRetailers: { read: [ADMIN, EMPLOYEE, MASTER_DISTRIBUTOR, DISTRIBUTOR] },
} as const satisfies Record<string, Partial<Record<RoleAction, readonly UserType[]>>>;

export type RoleAction = 'list' | 'read' | 'create' | 'edit';
export type RoleResource = keyof typeof ROLE_TABLE;

export function can(role: UserType | undefined | null, resource: string, action: string): boolean {
  if (role === undefined || role === null) return false;
  const entry = (ROLE_TABLE as Record<string, Partial<Record<string, readonly UserType[]>>>)[resource];
  // show/export are reads; a resource without its own `read` entry reads as it lists. Unknown: refused.
  const key = action === 'show' || action === 'export' ? 'read' : action;
  const allowed = key === 'read' ? (entry?.read ?? entry?.list) : entry?.[key];
  return !!allowed && allowed.includes(role);
}

/** The role-table resource behind each user type (account/* calls). */
export const USER_TYPE_RESOURCE: Record<number, RoleResource> = {
  [UserType.CUSTOMER]: 'customers',
  [UserType.MASTER_DISTRIBUTOR]: 'masterDistributors',
  [UserType.DISTRIBUTOR]: 'distributors',
  [UserType.RETAILER]: 'retailers',
  [UserType.EMPLOYEE]: 'employees',
  [UserType.ADMIN]: 'admins',
};
