import { createTheme } from '@mui/material';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useParams } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { WalletPage } from '../../src/web/resources/wallet/WalletPage';
import { bodyRows, cellTexts, jsonResponse, renderInAdmin, wireUser } from './helpers';
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
  saleReference: 'UTM12345',
});

/** Where the sale link leads (the sale's page, here only its id). */
const SaleShown = () => <p>sale page {useParams().id}</p>;

const renderWallet = () =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/wallet" element={<WalletPage />} />
        <Route path="/sale/:id" element={<SaleShown />} />
      </Routes>,
      { path: '/wallet', dataProvider: createDataProvider() },
    ),
  );

/** A posting's time as the statement writes it: the seed's medium form, date and time of day ('Nov 26, 2026, 7:43:05 AM'). */
const AT = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));

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
      'Date and time (newest first)',
      'Kind',
      'Transaction Type',
      'Amount',
      'Status',
      'Balance',
      'Clearing Balance',
      'Reference',
    ]);
    const settlement = screen.getByText('SETTLEMENT').closest('tr') as HTMLElement;
    expect(cellTexts(settlement)).toEqual([
      AT(SETTLED.createdAt),
      'SETTLEMENT',
      'CREDIT',
      '₹100.00',
      'SETTLED',
      '₹100.00',
      '₹0.00',
      'UTM12345',
    ]);
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

  it('the statement runs newest first with date and time, each row from the one below it, the top row as the card', async () => {
    login(UserType.RETAILER);
    // After "settle all": the commission's settlement (DEBIT clearing, CREDIT available), newest first.
    const rows = [
      wirePosting(12, 'retailer', 100, {
        kind: 'SETTLEMENT',
        status: 'SETTLED',
        balanceType: 'AVAILABLE',
        balance: 775.16,
        clearingBalance: 0,
        createdAt: '2026-11-23T10:15:00.000Z',
      }),
      wirePosting(11, 'retailer', 100, {
        kind: 'SETTLEMENT',
        status: 'SETTLED',
        transactionType: 'DEBIT',
        balanceType: 'CLEARING',
        balance: 675.16,
        clearingBalance: 0,
        createdAt: '2026-11-23T10:15:00.000Z',
      }),
      wirePosting(10, 'retailer', 100, {
        balance: 675.16,
        clearingBalance: 100,
        createdAt: '2026-11-22T09:30:00.000Z',
      }),
    ];
    stubServer((request) =>
      request.path === 'wallet/fetch'
        ? jsonResponse(200, {
            result: { wallet: { balance: 775.16, clearingBalance: 0 }, transactions: rows, totalCounts: 3 },
          })
        : undefined,
    );
    renderWallet();
    expect(
      await within(await screen.findByRole('listitem', { name: 'Balance' })).findByText('₹775.16'),
    ).toBeInTheDocument();
    const cells = bodyRows(document.body);
    expect(cells.map((row) => [row[0], row[5], row[6]])).toEqual([
      [AT('2026-11-23T10:15:00.000Z'), '₹775.16', '₹0.00'],
      [AT('2026-11-23T10:15:00.000Z'), '₹675.16', '₹0.00'],
      [AT('2026-11-22T09:30:00.000Z'), '₹675.16', '₹100.00'],
    ]);
    // The time of day is shown, not the date alone.
    expect(cells[0][0]).toMatch(/\d{1,2}:\d{2}:\d{2}\s?[AP]M$/);
  });

  it('a wallet that owes the network shows its negative balance in red, saying so', async () => {
    login(UserType.RETAILER);
    stubServer((request) =>
      request.path === 'wallet/fetch'
        ? jsonResponse(200, {
            result: { wallet: { balance: -200, clearingBalance: 50 }, transactions: [], totalCounts: 0 },
          })
        : undefined,
    );
    renderWallet();
    const owed = await screen.findByRole('listitem', { name: 'Balance: owed to the network' });
    const figure = within(owed).getByText('-₹200.00');
    // In the theme's error colour (AdminContext here: MUI's default theme).
    expect(figure).toHaveStyle({ color: createTheme().palette.error.main });
    expect(within(card('Clearing Balance')).getByText('₹50.00')).not.toHaveStyle({
      color: createTheme().palette.error.main,
    });
    expect(
      within(owed).getByText(
        'A commission was reversed after it was paid out. Your next commissions repay it first.',
      ),
    ).toBeInTheDocument();
    expect(within(card('Clearing Balance')).getByText('₹50.00')).toBeInTheDocument();
  });

  it('shows the money in and out of the whole filter, a range of days, and its sales as links (issues 43, 53)', async () => {
    login(UserType.RETAILER);
    const payout = wirePosting(13, 'retailer', 40, {
      kind: 'PAYOUT',
      status: 'PAID',
      transactionType: 'DEBIT',
      balanceType: 'AVAILABLE',
      boughtProductId: null,
      reference: 'NEFT-0042',
    });
    const api = stubServer((request) =>
      request.path === 'wallet/fetch'
        ? jsonResponse(200, {
            result: {
              wallet: { balance: 60, clearingBalance: 0 },
              transactions: [payout, SETTLED],
              totalCounts: 2,
              totals: { moneyIn: 100, moneyOut: 40 },
            },
          })
        : undefined,
    );
    const user = userEvent.setup();
    renderWallet();
    const totals = await screen.findByRole('region', { name: 'Totals for the current filter' });
    await waitFor(() => expect(within(totals).getByText('₹100.00')).toBeInTheDocument());
    expect(within(totals).getByText('Money in').nextElementSibling).toHaveTextContent('₹100.00');
    expect(within(totals).getByText('Money out').nextElementSibling).toHaveTextContent('₹40.00');
    const payoutRow = screen.getByText('NEFT-0042').closest('tr') as HTMLElement;
    expect(within(payoutRow).queryByRole('link')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await user.type(screen.getByLabelText('To'), '2026-11-30');
    await waitFor(() =>
      expect(Object.fromEntries(api.requests.at(-1)?.query ?? [])).toMatchObject({
        from: '2026-11-01',
        to: '2026-11-30',
      }),
    );
    await user.click(screen.getByRole('link', { name: 'Open sale UTM12345' }));
    expect(await screen.findByText(`sale page ${IDS.sale}`)).toBeInTheDocument();
  });
});
