import { MSG } from '../../shared/messages';
import type { Envelope, ErrorBody, LoginResult, UserFetchResult } from '../../shared/wire';
import { apiUrl, type HttpOptions, type HttpResponse } from './request';
import { clearSession, saveLogin, saveUserDetails } from './session';

export interface LoginParams {
  userName: string;
  password: string;
  /** The code from the authenticator app, for a person with a second step. */
  otp?: string;
  /** One of the person's recovery codes, instead of the code. */
  recoveryCode?: string;
}

type Http = <T>(url: string, options?: HttpOptions) => Promise<HttpResponse<T>>;

/**
 * Whether a failed sign-in is the server asking for the second step (a 401 whose body carries
 * `result.mfaRequired`, docs/api.md): the right password of a person with a second step, or a wrong code. The
 * sign-in form (signin/form.ts) then asks for the code and sends it with the password.
 */
export const secondStepAsked = (error: unknown): boolean => {
  const { status, body } = (error ?? {}) as { status?: unknown; body?: Partial<ErrorBody> | null };
  return status === 401 && body?.result?.mfaRequired === true;
};

/**
 * Seed section 4: sign in, store the user and token, fetch the full record into uDD. Resolves `{ message }`. One
 * procedure for the panel's authProvider and the sign-in entry, so a session stored by either is the same.
 */
export async function signInAndStore({ userName, password, otp, recoveryCode }: LoginParams, http: Http) {
  const { json } = await http<Envelope<LoginResult>>(apiUrl('account/login'), {
    method: 'POST',
    body: JSON.stringify({
      userName,
      password,
      ...(otp !== undefined ? { otp } : {}),
      ...(recoveryCode !== undefined ? { recoveryCode } : {}),
    }),
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
