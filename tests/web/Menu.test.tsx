import { QueryClient } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuthProvider } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { MSG } from '../../src/shared/messages';
import { App } from '../../src/web/App';
import { Menu } from '../../src/web/layout/Menu';
import { authProvider } from '../../src/web/providers/authProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { jsonResponse, renderInAdmin, waitForSettled, wireUser } from './helpers';

const login = (type: UserType) => {
  const user = wireUser({ type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

let queryClient: QueryClient;

const renderMenu = (provider: AuthProvider = authProvider) => {
  queryClient = new QueryClient();
  return render(
    renderInAdmin(
      <Routes>
        <Route path="/home" element={<Menu />} />
        <Route path="/auth" element={<div>LOGIN SCREEN</div>} />
      </Routes>,
      { path: '/home', authProvider: provider, queryClient },
    ),
  );
};

/** The sidebar's link texts, in order, once every access check has answered. */
const sidebar = async () => {
  await screen.findByRole('menuitem', { name: 'Logout' });
  await waitForSettled(queryClient);
  return screen.getAllByRole('menuitem').map((item) => item.textContent);
};

/**
 * Seed section 6, written out: Home and Master Distributors for ADMIN and role 5 (employee); Distributors for ADMIN,
 * master distributor and role 5; Employees for ADMIN only; Retailers for ADMIN, master distributor, distributor, role
 * 5 and retailer; Customers for ADMIN, role 5 and retailer; Providers and Products for ADMIN and role 5;
 * Transactions for ADMIN only; Tehsil, District, State for ADMIN and role 5. Tierdesk adds Sales (staff and
 * retailers), My Wallet and Statements (the three tiers), Leads (staff), Audit (ADMIN), Approvals (staff: an
 * employee sees its own), Books (ADMIN) and TDS (staff).
 */
const SEED_SIDEBAR: [string, UserType, string[]][] = [
  [
    'ADMIN',
    UserType.ADMIN,
    [
      'Home',
      'Master Distributors',
      'Distributors',
      'Employees',
      'Retailers',
      'Customers',
      'Providers',
      'Products',
      'Transactions',
      'Sales',
      'Tehsil',
      'District',
      'State',
      'Leads',
      'Audit',
      'Approvals',
      'Import',
      'Books',
      'TDS',
      'Webhooks',
      'Notifications',
      'Logout',
    ],
  ],
  [
    'EMPLOYEE (role 5)',
    UserType.EMPLOYEE,
    [
      'Home',
      'Master Distributors',
      'Distributors',
      'Retailers',
      'Customers',
      'Providers',
      'Products',
      'Sales',
      'Tehsil',
      'District',
      'State',
      'Leads',
      'Approvals',
      'TDS',
      'Logout',
    ],
  ],
  [
    'MASTER_DISTRIBUTOR',
    UserType.MASTER_DISTRIBUTOR,
    ['Distributors', 'Retailers', 'My Wallet', 'Statements', 'My TDS', 'Logout'],
  ],
  ['DISTRIBUTOR', UserType.DISTRIBUTOR, ['Retailers', 'My Wallet', 'Statements', 'My TDS', 'Logout']],
  [
    'RETAILER',
    UserType.RETAILER,
    ['Retailers', 'Customers', 'Sales', 'My Wallet', 'Statements', 'My TDS', 'Logout'],
  ],
];

describe('Menu', () => {
  it.each(SEED_SIDEBAR)("shows %s the seed's sidebar", async (_name, type, expected) => {
    login(type);
    renderMenu();
    expect(await sidebar()).toEqual(expected);
  });

  it('links to the seed paths', async () => {
    login(UserType.ADMIN);
    renderMenu();
    expect(await screen.findByRole('menuitem', { name: 'Home' })).toHaveAttribute('href', '/home');
    expect(screen.getByRole('menuitem', { name: 'Master Distributors' })).toHaveAttribute(
      'href',
      '/master/distributor/list',
    );
    expect(screen.getByRole('menuitem', { name: 'Transactions' })).toHaveAttribute(
      'href',
      '/transaction/list',
    );
  });

  it("asks the authProvider's canAccess: a denying one leaves only Logout", async () => {
    login(UserType.ADMIN);
    const canAccess = vi.fn(async () => false);
    renderMenu({ ...authProvider, canAccess });
    expect(await sidebar()).toEqual(['Logout']);
    expect(canAccess).toHaveBeenCalledWith(
      expect.objectContaining({ resource: 'employees', action: 'list' }),
    );
  });

  it('Logout is reachable with Tab', async () => {
    const user = userEvent.setup();
    login(UserType.DISTRIBUTOR);
    renderMenu();
    await sidebar();
    const logout = screen.getByRole('menuitem', { name: 'Logout' });
    expect(logout).toHaveAttribute('tabindex', '0');
    for (let presses = 0; presses < 5 && document.activeElement !== logout; presses++) await user.tab();
    expect(logout).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: MSG.logoutTitle })).toBeInTheDocument();
  });

  it('Logout asks for confirmation; No keeps the session', async () => {
    const user = userEvent.setup();
    login(UserType.ADMIN);
    renderMenu();
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    const dialog = await screen.findByRole('dialog', { name: MSG.logoutTitle });
    expect(dialog).toHaveTextContent(MSG.logoutText);
    await user.click(screen.getByRole('button', { name: MSG.logoutNo }));
    expect(localStorage.getItem(SESSION_KEYS.authToken)).toBe('tok-1');
    expect(screen.queryByText('LOGIN SCREEN')).not.toBeInTheDocument();
  });

  it('Yes, logout clears the session and goes to /auth', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(200, { result: true })));
    login(UserType.ADMIN);
    renderMenu();
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await user.click(await screen.findByRole('button', { name: MSG.logoutYes }));
    expect(await screen.findByText('LOGIN SCREEN')).toBeInTheDocument();
    for (const key of Object.values(SESSION_KEYS)) expect(localStorage.getItem(key)).toBeNull();
  });
});

describe('a page the role may not open', () => {
  it('is refused before any request: the refusal, and no call to its endpoint', async () => {
    login(UserType.EMPLOYEE);
    const fetch = vi.fn(async (_url: string) => jsonResponse(200, { result: { users: [], totalCounts: 0 } }));
    vi.stubGlobal('fetch', fetch);
    window.history.replaceState({}, '', '/employee/list');
    render(<App />);
    expect(await screen.findByText(MSG.forbidden)).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(within(main).queryByRole('heading', { name: 'Employee' })).not.toBeInTheDocument();
    expect(fetch.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('type=5'))).toEqual([]);
    expect(screen.queryByText(MSG.errorTitle)).not.toBeInTheDocument();
  });
});
