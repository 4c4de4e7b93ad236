import type { WireUser } from '../../shared/wire';

/**
 * Everything the panel keeps about the signed-in user (seed section 3).
 * localStorage keys are the seed's own; logout and a 401 clear all of them.
 */
export const SESSION_KEYS = {
  /** JSON of the login result without the token: `{ user }`. */
  userData: 'userData',
  /** The bearer token sent as `X-auth-token: bearer <token>`. */
  authToken: 'authToken',
  /** JSON of the full user record: `account/fetch?_id=` -> result.users[0]. */
  userDetails: 'uDD',
} as const;

const readJson = <T>(key: string): T | null => {
  const raw = localStorage.getItem(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
};

export const getToken = (): string | null => localStorage.getItem(SESSION_KEYS.authToken);

export const saveLogin = (token: string, user: WireUser): void => {
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.authToken, token);
};

export const saveUserDetails = (user: WireUser): void => {
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

/** The stored user: the full record (uDD), falling back to the login result (userData.user). */
export const getStoredUser = (): WireUser | null =>
  readJson<WireUser>(SESSION_KEYS.userDetails) ??
  readJson<{ user?: WireUser }>(SESSION_KEYS.userData)?.user ??
  null;

/**
 * Merges what changed of the signed-in person into both stored records (its second step switched on or off), so
 * what the panel reads (DecisionDialogs' code field, the dashboard's set-up dialog) follows at once.
 */
export const updateStoredUser = (patch: Partial<WireUser>): void => {
  const details = readJson<WireUser>(SESSION_KEYS.userDetails);
  if (details) saveUserDetails({ ...details, ...patch });
  const data = readJson<{ user?: WireUser }>(SESSION_KEYS.userData);
  if (data?.user)
    localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user: { ...data.user, ...patch } }));
};

export const clearSession = (): void => {
  for (const key of Object.values(SESSION_KEYS)) localStorage.removeItem(key);
};
