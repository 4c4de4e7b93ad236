import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '../../src/shared/messages';
import { App } from '../../src/web/App';
import { authProvider } from '../../src/web/providers/authProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { jsonResponse, wireUser } from './helpers';

const visit = (path: string) => {
  window.history.replaceState({}, '', path);
  return render(<App />);
};

const login = () => {
  const user = wireUser();
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

describe('App routes', () => {
  it('the empty path redirects to /auth (the login page)', async () => {
    visit('/');
    expect(await screen.findByRole('heading', { name: 'Welcome back!' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/auth');
  });

  it("react-admin's /login forwards to /auth", async () => {
    visit('/login');
    expect(await screen.findByRole('heading', { name: 'Welcome back!' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/auth');
  });

  it('/home without a session goes to /auth', async () => {
    // Admin's requireAuth signed out again each time a sign-out cleared the cache, hundreds of times on a blank
    // page, for up to 10 s (this test's wait, which it then missed on a loaded machine).
    const logout = vi.spyOn(authProvider, 'logout');
    try {
      visit('/home');
      expect(await screen.findByRole('heading', { name: 'Welcome back!' })).toBeInTheDocument();
      expect(window.location.pathname).toBe('/auth');
      expect(logout.mock.calls.length).toBeLessThanOrEqual(1);
    } finally {
      logout.mockRestore();
    }
  });

  it('/welcome is public and has the two join cards and a login button', async () => {
    visit('/welcome');
    expect(await screen.findByRole('link', { name: /Join as Retailer/ })).toHaveAttribute(
      'href',
      '/onboarding/retailer',
    );
    expect(screen.getByRole('link', { name: /Join as Distributor/ })).toHaveAttribute(
      'href',
      '/onboarding/distributor',
    );
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/auth');
    expect(screen.queryByRole('menuitem', { name: 'Logout' })).not.toBeInTheDocument();
  });

  it('/home with a session shows the dashboard inside the layout', async () => {
    login();
    vi.stubGlobal(
      'fetch',
      vi.fn().mockImplementation(async () =>
        jsonResponse(200, {
          result: {
            userReport: [
              {
                ACTIVE_DISTRIBUTORS: 1,
                ACTIVE_EMPLOYEES: 2,
                ACTIVE_MASTER_DISTRIBUTORS: 3,
                ACTIVE_RETAILERS: 4,
                CUSTOMER: 5,
                DISTRIBUTOR: 6,
                EMPLOYEE: 7,
                MASTER_DISTRIBUTOR: 8,
                RETAILER: 9,
              },
            ],
          },
        }),
      ),
    );
    visit('/home');
    // The tile shows its label while the count loads (and the dashboard's code with it): wait for the count.
    await waitFor(() => expect(screen.getByRole('listitem', { name: 'Retailers' })).toHaveTextContent('9'));
    expect(screen.getByRole('menuitem', { name: 'Home' })).toBeInTheDocument();
  });

  it('logging in from / lands on the dashboard with the layout', async () => {
    const user = userEvent.setup();
    const counts = {
      ACTIVE_DISTRIBUTORS: 1,
      ACTIVE_EMPLOYEES: 2,
      ACTIVE_MASTER_DISTRIBUTORS: 3,
      ACTIVE_RETAILERS: 4,
      CUSTOMER: 5,
      DISTRIBUTOR: 6,
      EMPLOYEE: 7,
      MASTER_DISTRIBUTOR: 8,
      RETAILER: 42,
    };
    vi.stubGlobal(
      'fetch',
      vi.fn().mockImplementation(async (url: string) => {
        if (url.endsWith('/account/login'))
          return jsonResponse(200, { result: { token: 'tok-2', user: wireUser() } });
        if (url.includes('/account/fetch'))
          return jsonResponse(200, { result: { users: [wireUser()], totalCounts: 1 } });
        if (url.endsWith('/report/userCounts'))
          return jsonResponse(200, { result: { userReport: [counts] } });
        return jsonResponse(404, { message: 'Not found' });
      }),
    );
    visit('/');
    await user.type(await screen.findByLabelText('Mobile *'), '9999999999');
    await user.type(screen.getByLabelText('Password *'), 'Admin@1234{Enter}');
    expect(await screen.findByRole('listitem', { name: 'Retailers' })).toHaveTextContent('42');
    expect(window.location.pathname).toBe('/home');
    expect(localStorage.getItem(SESSION_KEYS.authToken)).toBe('tok-2');
    expect(screen.getByRole('menuitem', { name: 'Logout' })).toBeInTheDocument();
  });

  it('a 401 on a private call ends the session: /auth, with a toast that says so', async () => {
    login();
    vi.stubGlobal(
      'fetch',
      vi.fn().mockImplementation(async () => jsonResponse(401, { message: MSG.invalidSession })),
    );
    visit('/home');
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent(MSG.sessionEndedNotice);
    expect(toast).not.toHaveTextContent(MSG.invalidSession);
    expect(window.location.pathname).toBe('/auth');
    expect(localStorage.getItem(SESSION_KEYS.authToken)).toBeNull();
  });

  it('Logout while a call of the page is under way: /auth with no notice, and signing in again lands on home', async () => {
    login();
    const user = userEvent.setup();
    let revoked = false;
    let answerList: (() => void) | undefined;
    /** The server: tok-1 is the session signed out (revoked by account/logout), tok-2 the next sign-in's. */
    const signedIn = (init?: RequestInit) => {
      const token = new Headers(init?.headers).get('X-auth-token');
      return token === 'bearer tok-2' || (token === 'bearer tok-1' && !revoked);
    };
    vi.stubGlobal(
      'fetch',
      vi.fn().mockImplementation(async (url: string, init?: RequestInit) => {
        if (url.endsWith('/account/login'))
          return jsonResponse(200, { result: { token: 'tok-2', user: wireUser() } });
        if (url.endsWith('/account/logout')) {
          revoked = true;
          // The list's answer, under way while the session was revoked, arrives before this one.
          answerList?.();
          await new Promise((resolve) => setTimeout(resolve, 20));
          return jsonResponse(200, { result: {} });
        }
        // The retailers list is still being answered when the person signs out.
        if (url.includes('type=4') && !revoked) await new Promise<void>((resolve) => (answerList = resolve));
        if (!signedIn(init)) return jsonResponse(401, { message: MSG.invalidSession });
        if (url.endsWith('/report/userCounts')) return jsonResponse(200, { result: { userReport: [{}] } });
        if (url.includes('/account/fetch'))
          return jsonResponse(200, { result: { users: [wireUser()], totalCounts: 1 } });
        return jsonResponse(200, { result: {} });
      }),
    );
    visit('/retailer/list');
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await user.click(await screen.findByRole('button', { name: MSG.logoutYes }));
    expect(await screen.findByRole('heading', { name: 'Welcome back!' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/auth');
    await user.type(await screen.findByLabelText('Mobile *'), '9999999999');
    await user.type(screen.getByLabelText('Password *'), 'Admin@1234{Enter}');
    await waitFor(() => expect(window.location.pathname).toBe('/home'));
    expect(screen.queryByText(MSG.sessionEndedNotice)).not.toBeInTheDocument();
  });

  it('a page canAccess refuses shows the refusal and asks the server nothing for it', async () => {
    // A retailer may not list employees (seed section 6): the authProvider's canAccess says no.
    const user = wireUser({ _id: 'r-1', type: 4, name: 'Ravi Retailer' });
    localStorage.setItem(SESSION_KEYS.authToken, 'tok-r');
    localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
    localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
    const fetchMock = vi.fn().mockImplementation(async () => jsonResponse(200, { result: {} }));
    vi.stubGlobal('fetch', fetchMock);
    visit('/employee/list');
    expect(await screen.findByText(MSG.forbidden)).toBeInTheDocument();
    const asked = fetchMock.mock.calls.map(([url]) => String(url));
    expect(asked.filter((url) => url.includes('type=5'))).toEqual([]);
    // The refusal is the page's own alert; no error toast on top of it.
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByText('Error!!!')).not.toBeInTheDocument();
  });
});
