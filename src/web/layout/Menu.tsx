import DashboardIcon from '@mui/icons-material/Dashboard';
import type { ComponentType } from 'react';
import { Menu as RaMenu, useCanAccess, useTranslate } from 'react-admin';
import type { RoleResource } from '../../shared/roles';
import audit from '../resources/audit';
import customers from '../resources/customers';
import distributors from '../resources/distributors';
import districts from '../resources/districts';
import employees from '../resources/employees';
import leads from '../resources/leads';
import masterDistributors from '../resources/masterDistributors';
import products from '../resources/products';
import providers from '../resources/providers';
import retailers from '../resources/retailers';
import sales from '../resources/sales';
import states from '../resources/states';
import tehsils from '../resources/tehsils';
import transactions from '../resources/transactions';
import wallet from '../resources/wallet';
import { LogoutMenuItem } from './LogoutMenuItem';

export interface MenuEntry {
  /** ROLE_TABLE key; the entry shows when the authProvider's `canAccess` allows `list` on it. */
  key: RoleResource;
  to: string;
  /** i18n key */
  label: string;
  icon: ComponentType;
}

/**
 * Sidebar links in the seed's order (section 2). Only screens that exist are listed; a new
 * resource adds its entry here.
 */
export const MENU_ENTRIES: MenuEntry[] = [
  { key: 'dashboard', to: '/home', label: 'app.menu.home', icon: DashboardIcon },
  {
    key: 'masterDistributors',
    to: masterDistributors.path,
    label: 'app.menu.masterDistributors',
    icon: masterDistributors.icon,
  },
  { key: 'distributors', to: distributors.path, label: 'app.menu.distributors', icon: distributors.icon },
  { key: 'employees', to: employees.path, label: 'app.menu.employees', icon: employees.icon },
  { key: 'retailers', to: retailers.path, label: 'app.menu.retailers', icon: retailers.icon },
  { key: 'customers', to: customers.path, label: 'app.menu.customers', icon: customers.icon },
  { key: 'providers', to: providers.path, label: 'app.menu.providers', icon: providers.icon },
  { key: 'products', to: products.path, label: 'app.menu.products', icon: products.icon },
  { key: 'transactions', to: transactions.path, label: 'app.menu.transactions', icon: transactions.icon },
  // Not in the seed's sidebar: the sales behind the transactions, and a tier user's own wallet.
  { key: 'sales', to: sales.path, label: 'app.menu.sales', icon: sales.icon },
  { key: 'wallet', to: wallet.path, label: 'app.menu.wallet', icon: wallet.icon },
  { key: 'tehsils', to: tehsils.path, label: 'app.menu.tehsils', icon: tehsils.icon },
  { key: 'districts', to: districts.path, label: 'app.menu.districts', icon: districts.icon },
  { key: 'states', to: states.path, label: 'app.menu.states', icon: states.icon },
  // Not in the seed's sidebar: the review of onboarding applications, after the seed's entries.
  { key: 'leads', to: leads.path, label: 'app.menu.leads', icon: leads.icon },
  { key: 'audit', to: audit.path, label: 'app.menu.audit', icon: audit.icon },
];

/** One sidebar link, shown when `canAccess({ resource, action: 'list' })` allows it (the role table, seed section 6). */
const MenuEntryItem = ({ entry: { key, to, label, icon: Icon } }: { entry: MenuEntry }) => {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: key, action: 'list' });
  if (!canAccess) return null;
  return <RaMenu.Item to={to} primaryText={translate(label)} leftIcon={<Icon />} />;
};

export const Menu = () => (
  <RaMenu>
    {MENU_ENTRIES.map((entry) => (
      <MenuEntryItem key={entry.key} entry={entry} />
    ))}
    <LogoutMenuItem />
  </RaMenu>
);
