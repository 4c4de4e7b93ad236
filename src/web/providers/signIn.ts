import { MSG } from '../../shared/messages';
import type { Envelope, LoginResult, UserFetchResult } from '../../shared/wire';
import { apiUrl, type HttpOptions, type HttpResponse } from './request';
import { clearSession, saveLogin, saveUserDetails } from './session';

export interface LoginParams {
  userName: string;
  password: string;
}

type Http = <T>(url: string, options?: HttpOptions) => Promise<HttpResponse<T>>;

/**
 * Seed section 4: sign in, store the user and token, fetch the full record into uDD. Resolves `{ message }`. One
 * procedure for the panel's authProvider and the sign-in entry, so a session stored by either is the same.
 */
export async function signInAndStore({ userName, password }: LoginParams, http: Http) {
  const { json } = await http<Envelope<LoginResult>>(apiUrl('account/login'), {
    method: 'POST',
    body: JSON.stringify({ userName, password }),
  });
  const { token, user } = json.result;
  saveLogin(token, user);
  try {
    const fetched = await http<Envelope<UserFetchResult>>(
      apiUrl(`account/fetch?_id=${encodeURIComponent(user._id)}`),
    );
    saveUserDetails(fetched.json.result.users[0] ?? user);
  } catch (error) {
    clearSession();
    throw error;
  }
  return { message: json.message ?? MSG.loginSuccess };
}
