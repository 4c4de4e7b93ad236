import { render, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { AUDIT_MSG } from '../../src/shared/constants/audit';
import { UserType } from '../../src/shared/enums';
import { hi } from '../../src/web/i18n/hi';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { WalletPage } from '../../src/web/resources/wallet/WalletPage';
import { jsonResponse, renderInAdmin, wireUser } from './helpers';
import { IDS } from './salesFixtures';
import { stubServer } from './salesServer';

// Issue 53: a bad filter in a bookmarked address marks its field with its message, as a typed one does, and the
// list loads with the filters it accepts instead of "The list could not be loaded.".

const login = () => {
  const user = wireUser({ _id: IDS.retailer, type: UserType.RETAILER });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const walletServer = () =>
  stubServer((request) =>
    request.path === 'wallet/fetch'
      ? jsonResponse(200, {
          result: { wallet: { balance: 320.5, clearingBalance: 100 }, transactions: [], totalCounts: 0 },
        })
      : undefined,
  );

const openWallet = (filter: Record<string, string>, locale?: 'en' | 'hi') =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/wallet" element={<WalletPage />} />
      </Routes>,
      {
        path: `/wallet?${new URLSearchParams({ filter: JSON.stringify(filter) })}`,
        dataProvider: createDataProvider(),
        locale,
      },
    ),
  );

const walletQueries = (api: ReturnType<typeof walletServer>) =>
  api.requests.filter((r) => r.path === 'wallet/fetch').map((r) => Object.fromEntries(r.query));

describe('a bookmarked filter the list refuses (issue 53)', () => {
  it('My Wallet: a From day out of range is marked on its field; the list loads without it', async () => {
    login();
    const api = walletServer();
    openWallet({ from: '1999-12-31', to: '2026-11-30' });
    expect(await screen.findByText('No Data Found')).toBeInTheDocument();
    const from = screen.getByLabelText('From');
    await waitFor(() => expect(from).toHaveAccessibleDescription(AUDIT_MSG.dateOutOfRange));
    expect(from).toHaveAttribute('aria-invalid', 'true');
    expect(walletQueries(api).length).toBeGreaterThan(0);
    for (const query of walletQueries(api)) {
      expect(query).not.toHaveProperty('from');
      expect(query).toMatchObject({ to: '2026-11-30' });
    }
    expect(screen.queryByText('The list could not be loaded.')).not.toBeInTheDocument();
  });

  it('My Wallet in Hindi: From later than To is marked in Hindi', async () => {
    login();
    const api = walletServer();
    openWallet({ from: '2026-11-20', to: '2026-11-01' }, 'hi');
    expect(await screen.findByText(hi.app.shared.msg.noData)).toBeInTheDocument();
    const to = screen.getByLabelText(hi.resources.wallet.fields.to);
    await waitFor(() => expect(to).toHaveAccessibleDescription(hi.app.shared.audit.fromAfterTo));
    for (const query of walletQueries(api)) {
      expect(query).not.toHaveProperty('from');
      expect(query).not.toHaveProperty('to');
    }
  });
});
