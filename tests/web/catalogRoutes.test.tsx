import { render, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { MSG } from '../../src/shared/messages';
import { App } from '../../src/web/App';
import { Menu } from '../../src/web/layout/Menu';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { jsonResponse, renderInAdmin, wireUser } from './helpers';

const login = (type: UserType = UserType.ADMIN) => {
  const user = wireUser({ type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const lists: Record<string, unknown> = {
  'state/fetch': {
    state: [{ _id: 's-1', name: 'goa', createdAt: '2026-11-21T12:00:00.000Z' }],
    totalCounts: 1,
  },
  'tehsil/fetch': { tehsil: [], totalCounts: 0 },
  'products/fetch': { products: [], totalCounts: 0 },
};

const stubApi = () =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = Object.keys(lists).find((key) => url.includes(`/api/v1/${key}`));
      return path ? jsonResponse(200, { result: lists[path] }) : jsonResponse(404, { message: 'Not found' });
    }),
  );

const visit = (path: string) => {
  window.history.replaceState({}, '', path);
  return render(<App />);
};

describe('catalogue routes (seed section 2)', () => {
  it('/location/state/list shows the state list in the layout', async () => {
    login();
    stubApi();
    visit('/location/state/list');
    expect(await screen.findByText('Goa')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'States' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'State' })).toBeInTheDocument();
  });

  it('/location/tehsil/create opens the tehsil list with the create modal', async () => {
    login();
    stubApi();
    visit('/location/tehsil/create');
    expect(await screen.findByRole('dialog', { name: 'Create New Tehsil' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Tehsils', hidden: true })).toBeInTheDocument();
  });

  it('/product/list has no Add button (the seed); /product/create opens its create modal for an admin', async () => {
    login();
    stubApi();
    const { unmount } = visit('/product/list');
    expect(await screen.findByRole('heading', { level: 1, name: 'Products' })).toBeInTheDocument();
    expect(await screen.findByText('No Data Found')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Add/ })).not.toBeInTheDocument();
    unmount();

    visit('/product/create');
    expect(await screen.findByRole('dialog', { name: 'Create New Product' })).toBeInTheDocument();
  });

  it('/product/create is refused to a retailer, who may not create products', async () => {
    login(UserType.RETAILER);
    stubApi();
    visit('/product/create');
    expect(await screen.findByText(MSG.forbidden)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('Menu entries for the catalogue', () => {
  const renderMenu = () =>
    render(
      renderInAdmin(
        <Routes>
          <Route path="/home" element={<Menu />} />
        </Routes>,
        { path: '/home' },
      ),
    );

  it("links to the seed's paths in the seed's order for an admin", async () => {
    login(UserType.ADMIN);
    renderMenu();
    await screen.findByRole('menuitem', { name: 'Home' });
    const items = screen
      .getAllByRole('menuitem')
      .map((item) => [item.textContent, item.getAttribute('href')]);
    expect(items).toEqual([
      ['Home', '/home'],
      ['Master Distributors', '/master/distributor/list'],
      ['Distributors', '/distributor/list'],
      ['Employees', '/employee/list'],
      ['Retailers', '/retailer/list'],
      ['Customers', '/customer/list'],
      ['Providers', '/provider/list'],
      ['Products', '/product/list'],
      ['Transactions', '/transaction/list'],
      ['Sales', '/sale/list'],
      ['Tehsil', '/location/tehsil/list'],
      ['District', '/location/district/list'],
      ['State', '/location/state/list'],
      ['Leads', '/lead/list'],
      ['Audit', '/audit/list'],
      ['Approvals', '/approvals/list'],
      ['Import', '/import'],
      ['Books', '/books'],
      ['TDS', '/tds'],
      ['Webhooks', '/webhooks/list'],
      ['Notifications', '/notifications/list'],
      ['Logout', null],
    ]);
  });

  it('shows them to an employee and hides them from a retailer', async () => {
    login(UserType.EMPLOYEE);
    const { unmount } = renderMenu();
    const menu = await screen.findByRole('menuitem', { name: 'Providers' });
    expect(
      within(menu.parentElement as HTMLElement).getByRole('menuitem', { name: 'State' }),
    ).toBeInTheDocument();
    unmount();
    localStorage.clear();
    login(UserType.RETAILER);
    renderMenu();
    await screen.findByRole('menuitem', { name: 'Logout' });
    for (const name of ['Providers', 'Products', 'Tehsil', 'District', 'State'])
      expect(screen.queryByRole('menuitem', { name })).not.toBeInTheDocument();
  });
});
