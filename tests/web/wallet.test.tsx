import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { WalletPage } from '../../src/web/resources/wallet/WalletPage';
import { jsonResponse, renderInAdmin, wireUser } from './helpers';
import { IDS, SALE_POSTINGS, wirePosting } from './salesFixtures';
import { stubServer } from './salesServer';

const login = (type: UserType) => {
  const user = wireUser({ _id: IDS.retailer, type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const SETTLED = wirePosting(7, 'retailer', 100, {
  balanceType: 'AVAILABLE',
  kind: 'SETTLEMENT',
  status: 'SETTLED',
  balance: 100,
  clearingBalance: 0,
});

const renderWallet = () =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/wallet" element={<WalletPage />} />
      </Routes>,
      { path: '/wallet', dataProvider: createDataProvider() },
    ),
  );

const card = (name: string) => screen.getByRole('listitem', { name });

describe('My wallet', () => {
  it("shows the caller's balance, clearing balance and own postings; filters by transaction type", async () => {
    login(UserType.RETAILER);
    const api = stubServer((request) =>
      request.path === 'wallet/fetch'
        ? jsonResponse(200, {
            result: {
              wallet: { balance: 320.5, clearingBalance: 100 },
              transactions: [SETTLED, SALE_POSTINGS[3]],
              totalCounts: 2,
            },
          })
        : undefined,
    );
    const user = userEvent.setup();
    renderWallet();
    expect(await screen.findByText('₹320.50')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'My Wallet' })).toBeInTheDocument();
    expect(within(card('Balance')).getByText('₹320.50')).toBeInTheDocument();
    expect(within(card('Clearing Balance')).getByText('₹100.00')).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Date',
      'Kind',
      'Transaction Type',
      'Amount',
      'Status',
      'Balance',
      'Clearing Balance',
      'Reference',
    ]);
    const settlement = screen.getByText('SETTLEMENT').closest('tr') as HTMLElement;
    expect(
      within(settlement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Nov 22, 2026', 'SETTLEMENT', 'CREDIT', '₹100.00', 'SETTLED', '₹100.00', '₹0.00', '']);
    expect(api.requests[0].path).toBe('wallet/fetch');
    expect(Object.fromEntries(api.requests[0].query)).toEqual({ page: '1', limit: '10' });

    await user.click(screen.getByRole('combobox', { name: 'Transaction Type' }));
    await user.click(await screen.findByRole('option', { name: 'DEBIT' }));
    await waitFor(() => expect(api.requests.at(-1)?.query.get('transactionType')).toBe('DEBIT'));
  });

  it('a wallet that cannot be loaded shows no figure rather than ₹0.00', async () => {
    login(UserType.DISTRIBUTOR);
    stubServer((request) =>
      request.path === 'wallet/fetch'
        ? jsonResponse(500, { message: 'Something went wrong on our side. Please try again.' })
        : undefined,
    );
    renderWallet();
    expect(await screen.findByText('The list could not be loaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(
      await screen.findByText('Error: Something went wrong on our side. Please try again.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('₹0.00')).not.toBeInTheDocument();
    expect(screen.queryByText('No Data Found')).not.toBeInTheDocument();
  });
});
