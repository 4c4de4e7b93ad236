import type { AuthProvider } from 'react-admin';
import { MSG } from '../../shared/messages';
import { can } from '../../shared/roles';
import type { Envelope, LoginResult, UserFetchResult } from '../../shared/wire';
import { apiUrl, httpClient } from './httpClient';
import { clearSession, getStoredUser, getToken, saveLogin, saveUserDetails } from './session';

/** The login URL of the panel (seed: 'auth'); react-admin's own /login redirects here. */
export const LOGIN_PATH = '/auth';
/** Where a successful login lands (seed: 'home'). */
export const HOME_PATH = '/home';

export interface LoginParams {
  userName: string;
  password: string;
}

const errorStatus = (error: unknown): number | undefined =>
  error && typeof error === 'object' && 'status' in error
    ? Number((error as { status: unknown }).status)
    : undefined;

export const authProvider: AuthProvider = {
  /** Seed section 4: store the user and token, fetch the full record into uDD. Resolves `{ message }`. */
  async login({ userName, password }: LoginParams) {
    const { json } = await httpClient<Envelope<LoginResult>>(apiUrl('account/login'), {
      method: 'POST',
      body: JSON.stringify({ userName, password }),
    });
    const { token, user } = json.result;
    saveLogin(token, user);
    try {
      const fetched = await httpClient<Envelope<UserFetchResult>>(
        apiUrl(`account/fetch?_id=${encodeURIComponent(user._id)}`),
      );
      saveUserDetails(fetched.json.result.users[0] ?? user);
    } catch (error) {
      clearSession();
      throw error;
    }
    return { message: json.message ?? MSG.loginSuccess };
  },

  /** Revoke the token on the server (failures ignored), then clear all stored session data. */
  async logout() {
    if (getToken()) {
      try {
        await httpClient(apiUrl('account/logout'), { method: 'POST' });
      } catch {
        // The session is cleared locally whatever the server says.
      }
    }
    clearSession();
    return LOGIN_PATH;
  },

  async checkAuth() {
    if (!getToken()) throw { redirectTo: LOGIN_PATH, message: false };
  },

  /**
   * 401: the session is gone (missing, revoked, expired). react-admin then toasts the message below (while the
   * session is still stored: it notifies only a signed-in user), logs out (logout above clears the session) and
   * goes to /auth. Other statuses (403 'Password change required' included) keep the session.
   */
  async checkError(error) {
    if (errorStatus(error) === 401) throw { redirectTo: LOGIN_PATH, message: 'app.auth.sessionEnded' };
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
