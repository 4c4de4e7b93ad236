import type { AuthProvider } from 'react-admin';
import { can } from '../../shared/roles';
import { apiUrl, httpClient } from './httpClient';
import { LOGIN_PATH } from './paths';
import { clearSession, getStoredUser, getToken } from './session';
import { type LoginParams, signInAndStore } from './signIn';

export { HOME_PATH, LOGIN_PATH } from './paths';
export type { LoginParams } from './signIn';

const errorStatus = (error: unknown): number | undefined =>
  error && typeof error === 'object' && 'status' in error
    ? Number((error as { status: unknown }).status)
    : undefined;

export const authProvider: AuthProvider = {
  /** Seed section 4: store the user and token, fetch the full record into uDD. Resolves `{ message }`. */
  login: (params: LoginParams) => signInAndStore(params, httpClient),

  /**
   * Clear all stored session data, then revoke the token on the server (failures ignored). Cleared first: a call of
   * the page the person leaves, answered 401 once the server has revoked it, then finds them signed out already
   * (checkError), rather than ending the session a second time and keeping that page to come back to.
   */
  async logout() {
    const token = getToken();
    clearSession();
    if (token) {
      try {
        await httpClient(apiUrl('account/logout'), {
          method: 'POST',
          headers: { 'X-auth-token': `bearer ${token}` },
        });
      } catch {
        // The session is cleared locally whatever the server says.
      }
    }
    return LOGIN_PATH;
  },

  async checkAuth() {
    if (!getToken()) throw { redirectTo: LOGIN_PATH, message: false };
  },

  /**
   * 401: the session is gone (missing, revoked, expired). react-admin then toasts the message below (while the
   * session is still stored: it notifies only a signed-in user), logs out (logout above clears the session) and
   * goes to /auth, keeping the page to return to after signing in. A 401 once the person signed out (Logout, here
   * or in another tab) only goes to /auth: nothing ended that they did not end, and there is no page to return to.
   * Other statuses (403 'Password change required' included) keep the session.
   */
  async checkError(error) {
    if (errorStatus(error) !== 401) return;
    if (!getToken()) throw { redirectTo: LOGIN_PATH, message: false, logoutUser: false };
    throw { redirectTo: LOGIN_PATH, message: 'app.auth.sessionEnded' };
  },

  async getPermissions() {
    return getStoredUser()?.type ?? null;
  },

  async getIdentity() {
    const user = getStoredUser();
    if (!user) throw new Error('Not logged in');
    return { id: user._id, fullName: user.name };
  },

  async canAccess({ resource, action }) {
    return can(getStoredUser()?.type, resource, action);
  },
};
