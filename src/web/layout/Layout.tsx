import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import {
  AppBar,
  Authenticated,
  LoadingIndicator,
  LocalesMenuButton,
  Layout as RaLayout,
  ToggleThemeButton,
  useLocales,
  useThemesContext,
  useTranslate,
} from 'react-admin';
import { Navigate } from 'react-router-dom';
import { LOGIN_PATH } from '../providers/authProvider';
import { clearSession, getToken } from '../providers/session';
import { LanguageKeeper } from './LanguageKeeper';
import { LiveEvents } from './LiveEvents';
import { Menu } from './Menu';
import { OfflineBanner } from './OfflineBanner';
import { SandboxBanner } from './SandboxBanner';
import { UpdatePrompt } from './UpdatePrompt';
import { AppUserMenu } from './UserMenu';

/**
 * react-admin's app bar: its language switch and theme toggle, and the user menu with the person's own pages
 * (Security). Logout lives in the sidebar, with its confirm dialog.
 */
const AppAppBar = () => <AppBar color="primary" userMenu={<AppUserMenu />} toolbar={<AppToolbar />} />;

/**
 * react-admin's own toolbar (the language switch, the theme toggle, the loading indicator), with its spinner named:
 * axe counts a progress bar without a name as serious, and live screens (issue 55) refresh while a page is read.
 */
const AppToolbar = () => {
  const translate = useTranslate();
  const locales = useLocales();
  const { darkTheme } = useThemesContext();
  return (
    <>
      {locales && locales.length > 1 ? <LocalesMenuButton /> : null}
      {darkTheme ? <ToggleThemeButton /> : null}
      <LoadingIndicator aria-label={translate('ra.page.loading')} />
    </>
  );
};

/** No session: what a sign-out clears (the stored session, every cached answer), then the sign-in page. */
const ToSignIn = () => {
  const queryClient = useQueryClient();
  useEffect(() => {
    clearSession();
    queryClient.clear();
  }, [queryClient]);
  return <Navigate to={LOGIN_PATH} replace />;
};

/**
 * react-admin Layout (app bar with the global loading indicator) + the role-gated 220 px menu, shown only with a
 * session; above every screen, the offline banner while there is no connection, the offer to reload into a new
 * build once one is ready, and the sandbox partner's banner while it is on. Without a stored token the user goes
 * straight to /auth; with one, Authenticated asks the auth provider and logs out if it refuses. Not Admin's
 * `requireAuth`: it logged out through a catch-all route that each logout's cleared query cache mounted again, and
 * those updates kept React Router's navigation to /auth (a transition) from committing: /home without a session
 * showed a blank page for seconds, logging out hundreds of times (react-admin's own useLogout notes the race).
 */
export const Layout = ({ children }: { children: ReactNode }) => {
  if (!getToken()) return <ToSignIn />;
  return (
    <Authenticated>
      <RaLayout menu={Menu} appBar={AppAppBar}>
        <OfflineBanner />
        <UpdatePrompt />
        <SandboxBanner />
        <LanguageKeeper />
        <LiveEvents />
        {children}
      </RaLayout>
    </Authenticated>
  );
};
