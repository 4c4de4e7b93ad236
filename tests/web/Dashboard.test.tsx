import { render, screen, within } from '@testing-library/react';
import { testDataProvider } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { DASHBOARD_TILES, type UserCounts } from '../../src/shared/wire';
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

const login = (passwordUpdatedAt: string | null) => {
  const user = wireUser({ type: UserType.ADMIN, passwordUpdatedAt });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const renderDashboard = (getUserCounts: () => Promise<UserCounts>) =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/home" element={<Dashboard />} />
      </Routes>,
      { path: '/home', dataProvider: testDataProvider({ getUserCounts } as never) },
    ),
  );

describe('Dashboard', () => {
  it('shows the nine tiles with their counts', async () => {
    login('2024-01-01T00:00:00.000Z');
    renderDashboard(vi.fn().mockResolvedValue(COUNTS));
    expect(await screen.findByText('19')).toBeInTheDocument();
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
    expect(await screen.findByText('Could not load the user counts.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('opens the Update Password dialog when the stored user has no password-set marker', async () => {
    login(null);
    const getUserCounts = vi.fn().mockResolvedValue(COUNTS);
    renderDashboard(getUserCounts);
    expect(await screen.findByRole('dialog', { name: 'Update Password' })).toBeInTheDocument();
    expect(getUserCounts).not.toHaveBeenCalled();
  });
});
