import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { testDataProvider } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { type CommissionReport, DASHBOARD_TILES, type UserCounts } from '../../src/shared/wire';
import { Dashboard } from '../../src/web/pages/Dashboard';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { renderInAdmin, wireUser } from './helpers';

const COUNTS: UserCounts = {
  ACTIVE_DISTRIBUTORS: 11,
  ACTIVE_EMPLOYEES: 12,
  ACTIVE_MASTER_DISTRIBUTORS: 13,
  ACTIVE_RETAILERS: 14,
  CUSTOMER: 15,
  DISTRIBUTOR: 16,
  EMPLOYEE: 17,
  MASTER_DISTRIBUTOR: 18,
  RETAILER: 19,
};

const login = (passwordUpdatedAt: string | null, type: UserType = UserType.ADMIN) => {
  const user = wireUser({ type, passwordUpdatedAt });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const COMMISSIONS: CommissionReport = { today: 450, month: 12345.5, clearing: 300 };

const renderDashboard = (
  getUserCounts: () => Promise<UserCounts>,
  getCommissionReport: () => Promise<CommissionReport> = vi.fn().mockResolvedValue(COMMISSIONS),
  getList: (resource: string) => Promise<unknown> = () => Promise.reject(new Error('no list here')),
) =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/home" element={<Dashboard />} />
      </Routes>,
      {
        path: '/home',
        dataProvider: testDataProvider({ getUserCounts, getCommissionReport, getList } as never),
      },
    ),
  );

describe('Dashboard', () => {
  it('shows the nine tiles with their counts', async () => {
    login('2024-01-01T00:00:00.000Z');
    renderDashboard(vi.fn().mockResolvedValue(COUNTS));
    expect(await screen.findByText('19')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(DASHBOARD_TILES).toHaveLength(9);
    for (const { label, key } of DASHBOARD_TILES) {
      const tile = screen.getByRole('listitem', { name: label });
      expect(within(tile).getByText(String(COUNTS[key]))).toBeInTheDocument();
    }
    expect(screen.queryByRole('dialog', { name: 'Update Password' })).not.toBeInTheDocument();
  });

  it('shows an error state when the counts cannot be loaded', async () => {
    login('2024-01-01T00:00:00.000Z');
    renderDashboard(vi.fn().mockRejectedValue(new Error('boom')));
    const alert = (await screen.findByText('Could not load the user counts.')).closest('[role="alert"]');
    expect(within(alert as HTMLElement).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('after the nine tiles: commissions today, this month and in clearing, in rupees', async () => {
    login('2024-01-01T00:00:00.000Z');
    renderDashboard(vi.fn().mockResolvedValue(COUNTS));
    expect(await screen.findByText('₹12,345.50')).toBeInTheDocument();
    const tiles = screen.getAllByRole('listitem').map((tile) => tile.getAttribute('aria-label'));
    expect(tiles).toEqual([
      ...DASHBOARD_TILES.map(({ label }) => label),
      'Commissions Today',
      'Commissions This Month',
      'In Clearing',
    ]);
    expect(
      within(screen.getByRole('listitem', { name: 'Commissions Today' })).getByText('₹450.00'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('listitem', { name: 'In Clearing' })).getByText('₹300.00'),
    ).toBeInTheDocument();
    // Staff's figures add up every wallet, and say so.
    expect(
      within(screen.getByRole('listitem', { name: 'In Clearing' })).getByText('All wallets of the network'),
    ).toBeInTheDocument();
  });

  it('the commission tiles show loading, then an error with Retry that never reads as ₹0.00', async () => {
    login('2024-01-01T00:00:00.000Z');
    let fail!: (error: Error) => void;
    const getCommissionReport = vi
      .fn()
      .mockImplementationOnce(() => new Promise((_, reject) => (fail = reject)))
      .mockResolvedValueOnce({ today: 0, month: 0, clearing: 0 });
    const user = userEvent.setup();
    renderDashboard(vi.fn().mockResolvedValue(COUNTS), getCommissionReport);
    const today = screen.getByRole('listitem', { name: 'Commissions Today' });
    expect(await within(today).findByLabelText('Loading')).toBeInTheDocument();
    // The user counts do not wait for the commissions.
    expect(await screen.findByText('19')).toBeInTheDocument();

    fail(new Error('boom'));
    const alert = (await screen.findByText('Could not load the commissions.')).closest('[role="alert"]');
    for (const name of ['Commissions Today', 'Commissions This Month', 'In Clearing'])
      expect(within(screen.getByRole('listitem', { name })).getByText('—')).toBeInTheDocument();
    expect(screen.queryByText('₹0.00')).not.toBeInTheDocument();

    await user.click(within(alert as HTMLElement).getByRole('button', { name: 'Retry' }));
    expect(await within(today).findByText('₹0.00')).toBeInTheDocument();
    expect(screen.queryByText('Could not load the commissions.')).not.toBeInTheDocument();
  });

  it('opens the Update Password dialog when the stored user has no password-set marker', async () => {
    login(null);
    const getUserCounts = vi.fn().mockResolvedValue(COUNTS);
    const getCommissionReport = vi.fn().mockResolvedValue(COMMISSIONS);
    renderDashboard(getUserCounts, getCommissionReport);
    expect(await screen.findByRole('dialog', { name: 'Update Password' })).toBeInTheDocument();
    expect(getUserCounts).not.toHaveBeenCalled();
    expect(getCommissionReport).not.toHaveBeenCalled();
  });

  it("a retailer's money tiles say they are its network's, its customers' shares included, beside its own clearing balance", async () => {
    login('2024-01-01T00:00:00.000Z', UserType.RETAILER);
    const getList = vi.fn(async (resource: string) =>
      resource === 'wallet'
        ? { data: [], total: 0, meta: { wallet: { balance: 100, clearingBalance: 250 } } }
        : { data: [], total: 0 },
    );
    renderDashboard(
      vi.fn().mockResolvedValue(COUNTS),
      vi.fn().mockResolvedValue({ today: 0, month: 475.05, clearing: 475.05 }),
      getList,
    );
    const own = await screen.findByRole('listitem', { name: 'My Clearing Balance' });
    expect(await within(own).findByText('₹250.00')).toBeInTheDocument();
    expect(within(own).getByText('Your own wallet, as My Wallet shows it')).toBeInTheDocument();
    const network = screen.getByRole('listitem', { name: 'Network In Clearing' });
    expect(await within(network).findByText('₹475.05')).toBeInTheDocument();
    expect(within(network).getByText("Your wallet and your customers' shares")).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'In Clearing' })).not.toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Network Commissions This Month' })).toBeInTheDocument();
    expect(getList).toHaveBeenCalledWith(
      'wallet',
      expect.objectContaining({ pagination: { page: 1, perPage: 1 } }),
    );
  });
});
