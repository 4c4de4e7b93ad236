import type { ComponentType } from 'react';
import type { RaRecord } from 'react-admin';
import type { RoleResource } from '../../shared/roles';
import approvals from './approvals';
import audit from './audit';
import books from './books';
import customers from './customers';
import distributors from './distributors';
import districts from './districts';
import employees from './employees';
import imports from './imports';
import leads from './leads';
import masterDistributors from './masterDistributors';
import notifications from './notifications';
import products from './products';
import providers from './providers';
import retailers from './retailers';
import sales from './sales';
import statements from './statements';
import states from './states';
import tds from './tds';
import tdsCertificate from './tdsCertificate';
import tehsils from './tehsils';
import transactions from './transactions';
import wallet from './wallet';
import webhooks from './webhooks';

/** A screen at one of the seed's paths, shown when the role table allows `action` on its resource. */
export interface ResourceScreen {
  path: string;
  page: ComponentType;
  action: 'list' | 'show' | 'create';
}

/** What a resource folder's `index.ts` default-exports. */
interface ResourceParts {
  list: ComponentType;
  icon: ComponentType;
  recordRepresentation: (record: RaRecord) => string;
  /** The list's path (seed section 2). */
  path: string;
  /** Shown beside the menu link (Approvals: how many commands wait). */
  badge?: ComponentType;
}

export interface PanelResource extends ResourceParts {
  /** The ROLE_TABLE key: react-admin's resource name, and what `canAccess` is asked about. */
  name: RoleResource;
  /** Catalogue key of the sidebar link. */
  menuLabel: string;
  /** Every screen App mounts for it: the list first (the one the menu links to), then any others. */
  screens: ResourceScreen[];
}

const entry = (name: RoleResource, parts: ResourceParts, more: ResourceScreen[] = []): PanelResource => ({
  ...parts,
  name,
  menuLabel: `app.menu.${name}`,
  screens: [{ path: parts.path, page: parts.list, action: 'list' }, ...more],
});

/**
 * The panel's resources, once, in the sidebar's order (seed section 2): App mounts their screens and registers
 * them with react-admin, and the menu links to their lists. A new resource is added here.
 */
export const RESOURCES: readonly PanelResource[] = [
  entry('masterDistributors', masterDistributors),
  entry('distributors', distributors),
  entry('employees', employees),
  entry('retailers', retailers),
  entry('customers', customers),
  entry('providers', providers),
  // No Add button (the seed): /product/create opens the create modal, for the roles that may create.
  entry('products', products, [{ path: products.createPath, page: products.createPage, action: 'create' }]),
  entry('transactions', transactions),
  // Not in the seed's sidebar: the sales behind the transactions, and a tier user's own wallet.
  entry('sales', sales, [{ path: sales.pagePath, page: sales.page, action: 'show' }]),
  entry('wallet', wallet),
  // A tier user's monthly statements (issue 43); staff open a user's from its row in the tier-user lists.
  entry('statements', statements, [{ path: statements.userPath, page: statements.list, action: 'show' }]),
  // A tier user's own TDS by quarter, each with its certificate (issue 51).
  entry('tdsCertificate', tdsCertificate),
  // The seed's create path opens the list with the create modal open.
  entry('tehsils', tehsils, [{ path: tehsils.createPath, page: tehsils.createPage, action: 'list' }]),
  entry('districts', districts),
  entry('states', states),
  // Not in the seed's sidebar: the review of onboarding applications, after the seed's entries.
  entry('leads', leads),
  entry('audit', audit),
  // Maker-checker (issue 43): commands waiting for a second admin, with their count in the menu.
  entry('approvals', approvals),
  // Bulk import from CSV (issue 45): an admin's screen.
  entry('imports', imports),
  // The books on screen (issue 43): reconcile, the company's balances and settle all's preview; TDS by quarter.
  entry('books', books),
  entry('tds', tds),
  // Notifications (issue 55): an admin's integrator endpoints, and every delivery with Retry now.
  entry('webhooks', webhooks),
  entry('notifications', notifications),
];
