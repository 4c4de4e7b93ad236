import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { SALES_MSG } from '../../src/shared/schemas/sales';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { TransactionList } from '../../src/web/resources/transactions/TransactionList';
import { jsonResponse, labelledField, renderInAdmin, wireUser } from './helpers';
import { IDS, SALE_POSTINGS } from './salesFixtures';
import { answer, type Request, stubServer } from './salesServer';

// A toast stays until closed: a notice that waited behind the previous one would never be seen in this file.
vi.mock('../../src/shared/rules', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/shared/rules')>()),
  TOAST_MS: 600_000,
}));

const RETAILER = wireUser({
  _id: IDS.retailer,
  name: 'ganesh mobile store',
  type: UserType.RETAILER,
  wallet: { balance: 320.5, clearingBalance: 100 },
});

const login = () => {
  const user = wireUser({ _id: IDS.admin, type: UserType.ADMIN });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const server = (payout: (request: Request) => Response, settle: (request: Request) => Response) =>
  stubServer(
    (request) =>
      request.path === 'transactions/fetch'
        ? jsonResponse(200, { result: { transactions: SALE_POSTINGS, totalCounts: 5 } })
        : undefined,
    (request) => {
      if (request.path !== 'account/fetch') return undefined;
      const users =
        request.query.get('type') === '4' || request.query.get('_id') === IDS.retailer ? [RETAILER] : [];
      return jsonResponse(200, { result: { users, totalCounts: users.length } });
    },
    (request) =>
      request.path === 'bought_products/fetch'
        ? jsonResponse(200, { result: { boughtProducts: [], totalCounts: 0 } })
        : undefined,
    answer('POST', 'wallet/payout', payout),
    answer('POST', 'wallet/settle', settle),
  );

const renderTransactions = () =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/transaction/list" element={<TransactionList />} />
      </Routes>,
      { path: '/transaction/list', dataProvider: createDataProvider() },
    ),
  );

const pick = async (user: ReturnType<typeof userEvent.setup>, combobox: HTMLElement, option: string) => {
  await user.click(combobox);
  await user.click(await screen.findByRole('option', { name: option }));
};

const payOut = async (user: ReturnType<typeof userEvent.setup>, amount: string) => {
  await user.click(screen.getByRole('button', { name: 'Record Payout' }));
  const dialog = await screen.findByRole('dialog', { name: 'Record Payout' });
  await pick(user, within(dialog).getByRole('combobox', { name: 'User Type' }), 'Retailer');
  await pick(user, within(dialog).getByRole('combobox', { name: 'User' }), 'Ganesh Mobile Store');
  await user.type(labelledField(dialog, 'Amount (₹)'), amount);
  await user.type(labelledField(dialog, 'Reference'), 'NEFT-7');
  await user.click(within(dialog).getByRole('button', { name: 'Record Payout' }));
  return dialog;
};

const REFUSED = 'Payout exceeds the available balance of ₹320.50';

describe('Payout and settle messages belong to their own call', () => {
  it("a 409 on Record Payout shows its own error at once, in place of the previous call's toast", async () => {
    login();
    let calls = 0;
    server(
      () =>
        ++calls === 1
          ? jsonResponse(200, { result: SALE_POSTINGS[3], message: SALES_MSG.payoutReplayed })
          : jsonResponse(409, { message: REFUSED }),
      () => jsonResponse(200, { result: { settled: 0, amount: 0, users: 0 } }),
    );
    const user = userEvent.setup();
    renderTransactions();
    await screen.findByText('Ganesh Mobile Store');

    await payOut(user, '80');
    expect(await screen.findByText(SALES_MSG.payoutReplayed)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const dialog = await payOut(user, '900');
    expect(await screen.findByText(`Error: ${REFUSED}`)).toBeInTheDocument();
    expect(screen.getByText('Error!!!')).toBeInTheDocument();
    expect(screen.queryByText(SALES_MSG.payoutReplayed)).not.toBeInTheDocument();
    // The refused payout keeps its dialog open, ready to correct.
    expect(dialog).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Record Payout' })).toBeEnabled();
  });

  it('a payout that waits for approval (202) says so, and closes: nothing was paid yet', async () => {
    login();
    server(
      () =>
        jsonResponse(202, {
          result: {
            _id: '77777777-7777-4777-8777-777777777777',
            kind: 'PAYOUT',
            status: 'PENDING',
            amount: 25000,
          },
          message: SALES_MSG.payoutPending,
        }),
      () => jsonResponse(200, { result: { settled: 0, amount: 0, users: 0 } }),
    );
    const user = userEvent.setup();
    renderTransactions();
    await screen.findByText('Ganesh Mobile Store');
    await payOut(user, '25000');
    expect(await screen.findByText(SALES_MSG.payoutPending)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByText(SALES_MSG.payoutRecorded)).not.toBeInTheDocument();
  });

  it('Settle toasts its own answer: a refusal, then the next call’s success in its place', async () => {
    login();
    let calls = 0;
    const api = server(
      () => jsonResponse(200, { result: SALE_POSTINGS[3], message: SALES_MSG.payoutRecorded }),
      () =>
        ++calls === 1
          ? jsonResponse(409, { message: 'Another settlement is running' })
          : jsonResponse(200, {
              result: { settled: 5, amount: 500, users: 5 },
              message: SALES_MSG.settled(5),
            }),
    );
    const user = userEvent.setup();
    renderTransactions();
    await screen.findByText('Ganesh Mobile Store');
    await user.click(screen.getByRole('button', { name: 'Settle' }));
    const dialog = await screen.findByRole('dialog', { name: 'Settle Commissions' });
    await user.click(within(dialog).getByRole('button', { name: 'Settle' }));
    expect(await screen.findByText('Error: Another settlement is running')).toBeInTheDocument();
    // Still open, to retry.
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Settle' })).toBeEnabled());
    await user.click(within(dialog).getByRole('button', { name: 'Settle' }));
    expect(await screen.findByText('5 commissions settled')).toBeInTheDocument();
    expect(screen.queryByText('Error: Another settlement is running')).not.toBeInTheDocument();
    expect(api.posts().map(([call]) => call)).toEqual(['POST wallet/settle', 'POST wallet/settle']);
  });
});
