import { afterLoginPath, LOGIN_PATH } from './providers/paths';
import { plainFailure, sendRequest } from './providers/request';
import { getToken } from './providers/session';
import { signInAndStore } from './providers/signIn';
import { registerServiceWorker } from './serviceWorker';
import { drawSignIn, type Locale, type Theme } from './signin/form';

/**
 * The page's one script (index.html). Signed in, or on any page but sign-in, it starts the panel (main.tsx), as
 * before. Signed out on the sign-in page ('/', '/auth', react-admin's '/login'), it draws the sign-in form
 * (signin/form.ts, the one the panel's login page mounts too), a few KB without React, react-admin or MUI, and starts
 * loading the panel at once, so the panel's code downloads while the person types; Login stores the session as the
 * panel's authProvider does (signInAndStore) and hands the page to the panel, which starts signed in.
 * docs/architecture.md, "The sign-in entry".
 */

const SIGN_IN_PATHS = new Set(['/', LOGIN_PATH, '/login']);
/** react-admin's store keys (providers/store.ts): the language and the theme the panel reads as it starts. */
const STORE = { locale: 'RaStore.locale', theme: 'RaStore.theme' };

const root = document.getElementById('root');
if (!root) throw new Error('#root element missing from index.html');

// The offline copy (serviceWorker.ts) is kept from the first visit on, the sign-in page included.
registerServiceWorker();

const loadPanel = () => import('./main');

const stored = (key: string): unknown => {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
};

if (getToken() || !SIGN_IN_PATHS.has(location.pathname)) {
  void loadPanel().then(({ startPanel }) => startPanel(root));
} else {
  // '/' and '/login' open the sign-in page at its own path, keeping the query and react-admin's state (where to
  // return after signing in), as the panel's redirects do.
  if (location.pathname !== LOGIN_PATH) history.replaceState(history.state, '', LOGIN_PATH + location.search);
  // The panel's code. From the network (this script came from it: a first visit, a new release) it starts loading
  // once the form is on screen, so it downloads while the person types. From the cache (a repeat visit) there is
  // nothing to wait for but its evaluation, which would hold the page's only thread as the form appears: it starts
  // on the first key typed instead (or on Login).
  let panel: ReturnType<typeof loadPanel> | undefined;
  const startLoading = () => {
    if (!panel) {
      panel = loadPanel();
      // A failed download is met again when Login needs the panel.
      panel.catch(() => undefined);
    }
    return panel;
  };
  const fromCache = performance
    .getEntriesByType?.('resource')
    .some(
      (entry) =>
        /\/assets\/.*\.js$/.test(entry.name) && (entry as PerformanceResourceTiming).transferSize === 0,
    );
  if (fromCache) root.addEventListener('input', startLoading, { once: true });
  else requestAnimationFrame(() => setTimeout(startLoading));
  const preferredTheme: Theme = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  const storedTheme = stored(STORE.theme);
  const form = drawSignIn(root, {
    locale: stored(STORE.locale) === 'hi' ? 'hi' : 'en',
    theme: storedTheme === 'dark' || storedTheme === 'light' ? storedTheme : preferredTheme,
    onLocale: (locale: Locale) => localStorage.setItem(STORE.locale, JSON.stringify(locale)),
    onTheme: (theme: Theme) => localStorage.setItem(STORE.theme, JSON.stringify(theme)),
    async onSubmit(values) {
      const { message } = await signInAndStore(values, (url, options) =>
        sendRequest(url, options ?? {}, plainFailure),
      );
      const next = afterLoginPath((history.state as { usr?: unknown } | null)?.usr);
      let startPanel: Awaited<ReturnType<typeof loadPanel>>['startPanel'];
      try {
        ({ startPanel } = await startLoading());
      } catch {
        // The panel's code could not be fetched: the page opens it afresh, signed in.
        try {
          ({ startPanel } = await loadPanel());
        } catch {
          location.assign(next);
          return;
        }
      }
      history.pushState(null, '', next);
      form.remove();
      startPanel(root, { notice: message });
    },
  });
}
