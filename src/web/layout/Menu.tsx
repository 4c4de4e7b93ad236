import DashboardIcon from '@mui/icons-material/Dashboard';
import type { ComponentType } from 'react';
import { Menu as RaMenu, usePermissions, useTranslate } from 'react-admin';
import { can, type RoleResource } from '../../shared/roles';
import districts from '../resources/districts';
import products from '../resources/products';
import providers from '../resources/providers';
import states from '../resources/states';
import tehsils from '../resources/tehsils';
import { LogoutMenuItem } from './LogoutMenuItem';

export interface MenuEntry {
  /** ROLE_TABLE key; the entry shows when `can(role, key, 'list')`. */
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
  { key: 'providers', to: providers.path, label: 'app.menu.providers', icon: providers.icon },
  { key: 'products', to: products.path, label: 'app.menu.products', icon: products.icon },
  { key: 'tehsils', to: tehsils.path, label: 'app.menu.tehsils', icon: tehsils.icon },
  { key: 'districts', to: districts.path, label: 'app.menu.districts', icon: districts.icon },
  { key: 'states', to: states.path, label: 'app.menu.states', icon: states.icon },
];

export const Menu = () => {
  const { permissions } = usePermissions();
  const translate = useTranslate();
  return (
    <RaMenu>
      {MENU_ENTRIES.filter((entry) => can(permissions, entry.key, 'list')).map(
        ({ key, to, label, icon: Icon }) => (
          <RaMenu.Item key={key} to={to} primaryText={translate(label)} leftIcon={<Icon />} />
        ),
      )}
      <LogoutMenuItem />
    </RaMenu>
  );
};
