import type { ReactNode } from 'react';
import { AppBar, Layout as RaLayout } from 'react-admin';
import { Menu } from './Menu';

/**
 * Logout lives in the sidebar (with its confirm dialog), so the app bar has no user menu; it keeps react-admin's
 * language switch and theme toggle.
 */
const AppAppBar = () => <AppBar color="primary" userMenu={false} />;

/** react-admin Layout (app bar with the global loading indicator) + the role-gated 220 px menu. */
export const Layout = ({ children }: { children: ReactNode }) => (
  <RaLayout menu={Menu} appBar={AppAppBar}>
    {children}
  </RaLayout>
);
