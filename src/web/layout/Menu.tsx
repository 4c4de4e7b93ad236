import DashboardIcon from '@mui/icons-material/Dashboard';
import type { ComponentType } from 'react';
import { Menu as RaMenu, useCanAccess, useTranslate } from 'react-admin';
import type { RoleResource } from '../../shared/roles';
import { RESOURCES } from '../resources';
import { LogoutMenuItem } from './LogoutMenuItem';

export interface MenuEntry {
  /** ROLE_TABLE key; the entry shows when the authProvider's `canAccess` allows `list` on it. */
  key: RoleResource;
  to: string;
  /** i18n key */
  label: string;
  icon: ComponentType;
  /** Beside the label (a count), rendered only when the entry shows. */
  badge?: ComponentType;
}

/** Sidebar links in the seed's order (section 2): Home, then every resource's list in the registry's order. */
export const MENU_ENTRIES: MenuEntry[] = [
  { key: 'dashboard', to: '/home', label: 'app.menu.home', icon: DashboardIcon },
  ...RESOURCES.map(({ name, path, menuLabel, icon, badge }) => ({
    key: name,
    to: path,
    label: menuLabel,
    icon,
    badge,
  })),
];

/** One sidebar link, shown when `canAccess({ resource, action: 'list' })` allows it (the role table, seed section 6). */
const MenuEntryItem = ({ entry: { key, to, label, icon: Icon, badge: Badge } }: { entry: MenuEntry }) => {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: key, action: 'list' });
  if (!canAccess) return null;
  const text = translate(label);
  return (
    <RaMenu.Item
      to={to}
      primaryText={
        Badge ? (
          <>
            {text}
            <Badge />
          </>
        ) : (
          text
        )
      }
      leftIcon={<Icon />}
    />
  );
};

export const Menu = () => (
  <RaMenu>
    {MENU_ENTRIES.map((entry) => (
      <MenuEntryItem key={entry.key} entry={entry} />
    ))}
    <LogoutMenuItem />
  </RaMenu>
);
