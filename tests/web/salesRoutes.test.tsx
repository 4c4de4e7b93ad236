import { render, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { MSG } from '../../src/shared/messages';
import { App } from '../../src/web/App';
import { Menu } from '../../src/web/layout/Menu';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { jsonResponse, renderInAdmin, wireUser } from './helpers';
import { SALE_POSTINGS, wireSale } from './salesFixtures';
import { stubServer } from './salesServer';

const login = (type: UserType) => {
  const user = wireUser({ type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const menuOf = async (type: UserType) => {
  login(type);
  const view = render(
    renderInAdmin(
      <Routes>
        <Route path="/home" element={<Menu />} />
      </Routes>,
      { path: '/home' },
    ),
  );
  // Every panel role lists retailers: once it shows, the permissions have arrived.
  await screen.findByRole('menuitem', { name: 'Retailers' });
  const items = screen.getAllByRole('menuitem').map((item) => [item.textContent, item.getAttribute('href')]);
  view.unmount();
  localStorage.clear();
  return items;
};

describe('menu entries of issue 9, per role', () => {
  it('ADMIN: Transactions at the seed path after Products, then Sales; no My Wallet', async () => {
    const items = await menuOf(UserType.ADMIN);
    const names = items.map(([name]) => name);
    expect(names.slice(names.indexOf('Products'), names.indexOf('Products') + 3)).toEqual([
      'Products',
      'Transactions',
      'Sales',
    ]);
    expect(items).toContainEqual(['Transactions', '/transaction/list']);
    expect(items).toContainEqual(['Sales', '/sale/list']);
    expect(names).not.toContain('My Wallet');
  });

  it('EMPLOYEE: Sales, but neither Transactions nor My Wallet', async () => {
    const names = (await menuOf(UserType.EMPLOYEE)).map(([name]) => name);
    expect(names).toContain('Sales');
    expect(names).not.toContain('Transactions');
    expect(names).not.toContain('My Wallet');
  });

  it('MASTER_DISTRIBUTOR: its lists and My Wallet', async () => {
    expect(await menuOf(UserType.MASTER_DISTRIBUTOR)).toEqual([
      ['Distributors', '/distributor/list'],
      ['Retailers', '/retailer/list'],
      ['My Wallet', '/wallet'],
      ['Statements', '/statements'],
      ['My TDS', '/my-tds'],
      ['Logout', null],
    ]);
  });

  it('DISTRIBUTOR: retailers and My Wallet', async () => {
    expect(await menuOf(UserType.DISTRIBUTOR)).toEqual([
      ['Retailers', '/retailer/list'],
      ['My Wallet', '/wallet'],
      ['Statements', '/statements'],
      ['My TDS', '/my-tds'],
      ['Logout', null],
    ]);
  });

  it('RETAILER: its customers, its Sales and My Wallet; no Transactions', async () => {
    expect(await menuOf(UserType.RETAILER)).toEqual([
      ['Retailers', '/retailer/list'],
      ['Customers', '/customer/list'],
      ['Sales', '/sale/list'],
      ['My Wallet', '/wallet'],
      ['Statements', '/statements'],
      ['My TDS', '/my-tds'],
      ['Logout', null],
    ]);
  });
});

const visit = (path: string) => {
  window.history.replaceState({}, '', path);
  return render(<App />);
};

const ledgerApi = () =>
  stubServer((request) => {
    if (request.path === 'transactions/fetch')
      return jsonResponse(200, { result: { transactions: SALE_POSTINGS, totalCounts: 5 } });
    if (request.path === 'bought_products/fetch')
      return jsonResponse(200, { result: { boughtProducts: [wireSale({ postings: [] })], totalCounts: 1 } });
    if (request.path === 'wallet/fetch')
      return jsonResponse(200, {
        result: { wallet: { balance: 12, clearingBalance: 34 }, transactions: [], totalCounts: 0 },
      });
    return undefined;
  });

describe('routes of issue 9', () => {
  it('/transaction/list is the Transactions screen for an admin, inside the layout', async () => {
    login(UserType.ADMIN);
    ledgerApi();
    visit('/transaction/list');
    expect(await screen.findByRole('heading', { level: 1, name: 'Transactions' })).toBeInTheDocument();
    expect(await screen.findAllByText('Ganesh Mobile Store')).toHaveLength(1);
    expect(screen.getByRole('menuitem', { name: 'Transactions' })).toBeInTheDocument();
  });

  it('/transaction/list sends nothing for a retailer', async () => {
    login(UserType.RETAILER);
    const api = ledgerApi();
    visit('/transaction/list');
    // The role table refuses the screen before anything is asked of the server.
    expect(await screen.findByText(MSG.forbidden)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Transactions' })).not.toBeInTheDocument();
    expect(api.requests.filter((r) => r.path === 'transactions/fetch')).toEqual([]);
  });

  it('/sale/:id and /sale/list refuse a master distributor (no sales in the role table) and send nothing', async () => {
    login(UserType.MASTER_DISTRIBUTOR);
    const api = ledgerApi();
    const view = visit('/sale/00000000-0000-4000-8000-000000000010');
    expect(await screen.findByText(MSG.forbidden)).toBeInTheDocument();
    view.unmount();
    visit('/sale/list');
    expect(await screen.findByText(MSG.forbidden)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Sales' })).not.toBeInTheDocument();
    expect(api.requests.filter((r) => r.path === 'bought_products/fetch')).toEqual([]);
  });

  it('/wallet sends nothing for an admin (the wallet screen is for tier users)', async () => {
    login(UserType.ADMIN);
    const api = ledgerApi();
    visit('/wallet');
    expect(await screen.findByText(MSG.forbidden)).toBeInTheDocument();
    expect(api.requests.filter((r) => r.path === 'wallet/fetch')).toEqual([]);
  });

  it('/sale/:id and /wallet are mounted for the roles that may use them', async () => {
    login(UserType.RETAILER);
    ledgerApi();
    const view = visit('/sale/00000000-0000-4000-8000-000000000010');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sale UTM12345' })).toBeInTheDocument();
    view.unmount();
    visit('/wallet');
    expect(await screen.findByText('₹34.00')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'My Wallet' })).toBeInTheDocument();
  });
});
