import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useAuthProvider, useLocaleState, useNotify, useTheme } from 'react-admin';
import { createPortal } from 'react-dom';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { sharedKey } from '../i18n/sharedMessages';
import { preloadScreens } from '../layout/lazyPage';
import { OfflineBanner } from '../layout/OfflineBanner';
import { UpdatePrompt } from '../layout/UpdatePrompt';
import { afterLoginPath, LOGIN_PATH } from '../providers/paths';
import { drawSignIn, type SignInValues } from '../signin/form';

export { afterLoginPath };

/**
 * Seed sections 2 and 5: the login page at /auth inside the running panel (after Logout, a session that ended, a
 * link). It mounts the one sign-in form (signin/form.ts), the one the page's first script draws, and gives it the
 * panel's ways: react-admin's language and theme, the panel's toasts (notify; the session-ended notice shows there
 * too), the router for its links, the offline banner under its strip, and authProvider.login.
 */
export const Login = () => {
  const authProvider = useAuthProvider();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [locale, setLocale] = useLocaleState();
  const [theme, setTheme] = useTheme();
  const root = useRef<HTMLDivElement>(null);
  const [notices, setNotices] = useState<HTMLElement>();

  // The form is drawn once; what it calls back reads the panel's current hooks.
  const panel = useRef({ authProvider, notify, queryClient, navigate, location, setLocale, setTheme });
  panel.current = { authProvider, notify, queryClient, navigate, location, setLocale, setTheme };
  const start = useRef({ locale, theme });

  useEffect(() => {
    const element = root.current;
    if (!element) return;
    // The screens start loading on the first key, so the dashboard that opens next renders at once.
    const preload = () => void preloadScreens();
    element.addEventListener('input', preload, { once: true });
    const form = drawSignIn(element, {
      locale: start.current.locale === 'hi' ? 'hi' : 'en',
      theme: start.current.theme === 'dark' ? 'dark' : 'light',
      onLocale: (next) => panel.current.setLocale(next),
      redrawnOnLocale: true,
      onTheme: (next) => panel.current.setTheme(next),
      notify: (text, type) => panel.current.notify(text, { type }),
      navigate: (path) => panel.current.navigate(path),
      async onSubmit(values: SignInValues) {
        const { authProvider, notify, queryClient, navigate, location } = panel.current;
        const result = await authProvider!.login(values);
        // Not react-admin's useLogin: /auth is a public route, so the admin already cached
        // "not authenticated" while it was shown; reset the auth queries before entering the layout.
        await queryClient.resetQueries({ queryKey: ['auth'] });
        notify(result?.message ?? sharedKey('msg', 'loginSuccess'), { type: 'success' });
        navigate(afterLoginPath(location.state));
      },
    });
    setNotices(form.notices);
    return () => {
      element.removeEventListener('input', preload);
      form.remove();
    };
  }, []);

  return (
    <>
      <div ref={root} />
      {notices &&
        createPortal(
          <>
            <OfflineBanner />
            <UpdatePrompt />
          </>,
          notices,
        )}
    </>
  );
};

/** react-admin's own login route (/login) forwards to the panel's login URL, keeping its state. */
export const LoginRedirect = () => {
  const location = useLocation();
  return <Navigate to={{ pathname: LOGIN_PATH, search: location.search }} state={location.state} replace />;
};
