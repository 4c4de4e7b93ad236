/**
 * The panel's sign-in paths and where a sign-in lands, free of react-admin: the sign-in entry (src/web/entry.ts)
 * and the panel both read them.
 */

/** The login URL of the panel (seed: 'auth'); react-admin's own /login redirects here. */
export const LOGIN_PATH = '/auth';
/** Where a successful login lands (seed: 'home'). */
export const HOME_PATH = '/home';
/** The signed-in person's own security: the second step of signing in, and the sessions (the user menu's link). */
export const SECURITY_PATH = '/security';

/**
 * Where to go after signing in: back where the person was when the session ended (react-admin's logout puts
 * `{ nextPathname, nextSearch }` in the login route's state), else home. Only a path of the panel itself.
 */
export const afterLoginPath = (state: unknown): string => {
  const { nextPathname, nextSearch } = (state ?? {}) as { nextPathname?: unknown; nextSearch?: unknown };
  if (typeof nextPathname !== 'string' || !nextPathname.startsWith('/') || nextPathname.startsWith('//'))
    return HOME_PATH;
  if (nextPathname === LOGIN_PATH || nextPathname === '/login' || nextPathname === '/') return HOME_PATH;
  return nextPathname + (typeof nextSearch === 'string' && nextSearch.startsWith('?') ? nextSearch : '');
};
