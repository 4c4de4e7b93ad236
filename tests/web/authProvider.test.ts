import { HttpError } from 'react-admin';
import { UserType } from '../../src/shared/enums';
import { MSG } from '../../src/shared/messages';
import { authProvider, LOGIN_PATH } from '../../src/web/providers/authProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { jsonResponse, wireUser } from './helpers';

const storeSession = (type: number) => {
  const user = wireUser({ type: type as UserType });
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

describe('authProvider.login', () => {
  it('stores userData without the token, authToken, and uDD from account/fetch', async () => {
    const loginUser = wireUser({ _id: 'u-42', type: UserType.EMPLOYEE });
    const fullUser = { ...loginUser, name: 'Full Record' };
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(
        jsonResponse(200, { result: { token: 'tok-abc', user: loginUser }, message: 'Welcome!' }),
      )
      .mockResolvedValueOnce(jsonResponse(200, { result: { users: [fullUser], totalCounts: 1 } }));
    vi.stubGlobal('fetch', fetchMock);

    const result = await authProvider.login({ userName: '9000000001', password: 'Secret#123' });

    expect(result).toEqual({ message: 'Welcome!' });
    const [loginUrl, loginInit] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(loginUrl).toBe('/api/v1/account/login');
    expect(JSON.parse(String(loginInit.body))).toEqual({ userName: '9000000001', password: 'Secret#123' });
    const [fetchUrl, fetchInit] = fetchMock.mock.calls[1] as [string, RequestInit];
    expect(fetchUrl).toBe('/api/v1/account/fetch?_id=u-42');
    expect(new Headers(fetchInit.headers).get('X-auth-token')).toBe('bearer tok-abc');

    const userData = JSON.parse(localStorage.getItem('userData') ?? 'null');
    expect(userData).toEqual({ user: loginUser });
    expect(JSON.stringify(userData)).not.toContain('tok-abc');
    expect(localStorage.getItem('authToken')).toBe('tok-abc');
    expect(JSON.parse(localStorage.getItem('uDD') ?? 'null')).toEqual(fullUser);
  });

  it('stores nothing and rejects with the normalised message when the server refuses', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(jsonResponse(403, { message: MSG.customerLoginRefused })),
    );
    await expect(authProvider.login({ userName: '9000000009', password: 'x' })).rejects.toThrow(
      `Error: ${MSG.customerLoginRefused}`,
    );
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(localStorage.getItem('userData')).toBeNull();
  });
});

describe('authProvider session methods', () => {
  it('getPermissions resolves the stored user type (a number)', async () => {
    storeSession(UserType.RETAILER);
    await expect(authProvider.getPermissions!({})).resolves.toBe(4);
  });

  it('getIdentity comes from the stored user', async () => {
    storeSession(UserType.ADMIN);
    await expect(authProvider.getIdentity!()).resolves.toEqual({ id: 'u-1', fullName: 'Asha Admin' });
  });

  it('checkAuth resolves with a token and rejects to /auth without one', async () => {
    await expect(authProvider.checkAuth({})).rejects.toMatchObject({ redirectTo: LOGIN_PATH });
    storeSession(UserType.ADMIN);
    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
  });

  it('logout calls account/logout and clears all stored session data, even when the call fails', async () => {
    storeSession(UserType.ADMIN);
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse(500, {}, 'Internal Server Error'));
    vi.stubGlobal('fetch', fetchMock);
    await expect(authProvider.logout({})).resolves.toBe(LOGIN_PATH);
    expect((fetchMock.mock.calls[0] as [string, RequestInit])[0]).toBe('/api/v1/account/logout');
    expect((fetchMock.mock.calls[0] as [string, RequestInit])[1].method).toBe('POST');
    for (const key of ['userData', 'authToken', 'uDD']) expect(localStorage.getItem(key)).toBeNull();
  });

  it('logout revokes the token it had, asked once the panel holds no session', async () => {
    storeSession(UserType.ADMIN);
    let storedWhenAsked: string | null = 'not asked';
    const fetchMock = vi.fn().mockImplementation(async () => {
      storedWhenAsked = localStorage.getItem('authToken');
      return jsonResponse(200, { result: {} });
    });
    vi.stubGlobal('fetch', fetchMock);
    await authProvider.logout({});
    const { headers } = (fetchMock.mock.calls[0] as [string, RequestInit])[1];
    expect(new Headers(headers).get('X-auth-token')).toBe('bearer tok-1');
    expect(storedWhenAsked).toBeNull();
  });

  it("checkError on 401 rejects to /auth with the 'session ended' notice (react-admin then logs out)", async () => {
    storeSession(UserType.ADMIN);
    await expect(
      authProvider.checkError(
        new HttpError('Error: Invalid session token', 401, { message: MSG.invalidSession }),
      ),
    ).rejects.toEqual({ redirectTo: LOGIN_PATH, message: 'app.auth.sessionEnded' });
  });

  it('checkError on 401 once signed out only goes to /auth: no notice, no second logout', async () => {
    await expect(
      authProvider.checkError(
        new HttpError('Error: Invalid session token', 401, { message: MSG.invalidSession }),
      ),
    ).rejects.toEqual({ redirectTo: LOGIN_PATH, message: false, logoutUser: false });
  });

  it("checkError on 403 'Password change required' keeps the session", async () => {
    storeSession(UserType.EMPLOYEE);
    await expect(
      authProvider.checkError(
        new HttpError(`Error: ${MSG.passwordChangeRequired}`, 403, { message: MSG.passwordChangeRequired }),
      ),
    ).resolves.toBeUndefined();
    expect(localStorage.getItem('authToken')).toBe('tok-1');
  });

  it('canAccess follows the shared role table', async () => {
    const canAccess = authProvider.canAccess!;
    storeSession(UserType.ADMIN);
    await expect(canAccess({ resource: 'dashboard', action: 'list' })).resolves.toBe(true);
    await expect(canAccess({ resource: 'employees', action: 'create' })).resolves.toBe(true);

    storeSession(UserType.RETAILER);
    await expect(canAccess({ resource: 'dashboard', action: 'list' })).resolves.toBe(false);
    await expect(canAccess({ resource: 'customers', action: 'list' })).resolves.toBe(true);
    await expect(canAccess({ resource: 'retailers', action: 'create' })).resolves.toBe(false);

    // A few rows of seed section 6, written out: the employee list is the admin's alone.
    storeSession(UserType.EMPLOYEE);
    await expect(canAccess({ resource: 'employees', action: 'list' })).resolves.toBe(false);
    await expect(canAccess({ resource: 'masterDistributors', action: 'list' })).resolves.toBe(true);
    storeSession(UserType.MASTER_DISTRIBUTOR);
    await expect(canAccess({ resource: 'distributors', action: 'list' })).resolves.toBe(true);
    await expect(canAccess({ resource: 'customers', action: 'list' })).resolves.toBe(false);
  });

  it('canAccess refuses everything without a session', async () => {
    await expect(authProvider.canAccess!({ resource: 'dashboard', action: 'list' })).resolves.toBe(false);
  });
});
