import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { MSG } from '../../src/shared/messages';
import { SALES_MSG } from '../../src/shared/schemas/sales';
import type { WireCommand } from '../../src/shared/wire';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { ApprovalList } from '../../src/web/resources/approvals/ApprovalList';
import { TransactionList } from '../../src/web/resources/transactions/TransactionList';
import { jsonResponse, labelledField, renderInAdmin, waitForSettled, wireUser } from './helpers';
import { IDS, SALE_POSTINGS, wireSale } from './salesFixtures';
import { answer, type Request, stubServer } from './salesServer';

// Adjust Wallet (issues 43 and 51): `wallet/adjust {userId, amount, note, reason}`, a signed correction of a tier
// user's wallet that always waits for a second admin, beside Record Payout for whoever may make adjustments (ADMIN,
// EMPLOYEE). The note is the statement's line; the reason is for staff only.

const login = (type: UserType) => {
  const user = wireUser({ _id: IDS.admin, type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const RETAILER = wireUser({
  _id: IDS.retailer,
  name: 'ganesh mobile store',
  type: UserType.RETAILER,
  wallet: { balance: 320.5, clearingBalance: 100 },
});

const pendingCommand = (request: Request): WireCommand => {
  const body = request.body as { amount: string; note?: string; reason: string };
  return {
    _id: '88888888-8888-4888-8888-888888888888',
    kind: 'ADJUSTMENT',
    status: 'PENDING',
    user: { _id: IDS.retailer, name: 'ganesh mobile store', type: UserType.RETAILER },
    amount: Number(body.amount),
    reference: null,
    note: body.note ?? null,
    reason: body.reason,
    details: null,
    maker: { _id: IDS.admin, name: 'tierdesk admin' },
    checker: null,
    rejectionReason: null,
    postingId: null,
    createdAt: '2026-11-26T05:30:00.000Z',
    decidedAt: null,
  };
};

const ledgerServer = (
  adjust: (request: Request) => Response,
  { admins = 2, payout }: { admins?: number; payout?: (request: Request) => Response } = {},
) =>
  stubServer(
    (request) => {
      if (request.path === 'approvals/admins') return jsonResponse(200, { result: { admins } });
      if (request.path === 'transactions/fetch')
        return jsonResponse(200, { result: { transactions: SALE_POSTINGS, totalCounts: 5 } });
      if (request.path === 'approvals/fetch')
        return jsonResponse(200, { result: { approvals: [], totalCounts: 0 } });
      return undefined;
    },
    (request) => {
      if (request.path !== 'account/fetch') return undefined;
      const users =
        request.query.get('type') === '4' || request.query.get('_id') === IDS.retailer ? [RETAILER] : [];
      return jsonResponse(200, { result: { users, totalCounts: users.length } });
    },
    (request) =>
      request.path === 'bought_products/fetch'
        ? jsonResponse(200, { result: { boughtProducts: [wireSale()], totalCounts: 1 } })
        : undefined,
    answer('POST', 'wallet/adjust', adjust),
    ...(payout ? [answer('POST', 'wallet/payout', payout)] : []),
  );

const renderAt = (path: string, queryClient = new QueryClient()) =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/transaction/list" element={<TransactionList />} />
        <Route path="/approvals/list" element={<ApprovalList />} />
      </Routes>,
      { path, dataProvider: createDataProvider(), queryClient },
    ),
  );

const pick = async (user: ReturnType<typeof userEvent.setup>, combobox: HTMLElement, option: string) => {
  await user.click(combobox);
  await user.click(await screen.findByRole('option', { name: option }));
};

describe('Adjust Wallet', () => {
  it('starts on the filtered user, asks for a reason, sends a signed debit and says it awaits approval', async () => {
    login(UserType.ADMIN);
    let refuse = true;
    const api = ledgerServer((request) =>
      refuse
        ? jsonResponse(409, { message: SALES_MSG.adjustmentExceedsBalance('₹320.50') })
        : jsonResponse(202, { result: pendingCommand(request), message: SALES_MSG.adjustmentPending }),
    );
    const user = userEvent.setup();
    renderAt('/transaction/list');
    await screen.findByText('Ganesh Mobile Store');
    await pick(user, screen.getByRole('combobox', { name: 'User Type' }), 'Retailer');
    await pick(user, screen.getByRole('combobox', { name: 'User' }), 'Ganesh Mobile Store');
    // The list is filtered once it asks for that user's postings (the filter bar applies after a pause).
    await waitFor(() =>
      expect(
        api.requests.some((r) => r.path === 'transactions/fetch' && r.query.get('userId') === IDS.retailer),
      ).toBe(true),
    );

    await user.click(screen.getByRole('button', { name: 'Adjust Wallet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adjust Wallet' });
    expect(within(dialog).getByRole('combobox', { name: 'User Type' })).toHaveTextContent('Retailer');
    expect(await within(dialog).findByText('Available balance: ₹320.50')).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'User' })).toHaveValue('Ganesh Mobile Store');
    expect(within(dialog).getByRole('radio', { name: 'Credit (add)' })).toBeChecked();

    // Payouts and adjustments are for tier users: the dialog offers no other type.
    await user.click(within(dialog).getByRole('combobox', { name: 'User Type' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Master Distributor',
      'Distributor',
      'Retailer',
    ]);
    await user.keyboard('{Escape}');

    // The shared schema's messages: a note and a reason are required, and 0 is no adjustment.
    await user.type(labelledField(dialog, 'Amount (₹)'), '0');
    await user.click(within(dialog).getByRole('button', { name: 'Send for approval' }));
    expect(await screen.findByText(MSG.validationFailed)).toBeInTheDocument();
    expect(within(dialog).getByText(SALES_MSG.adjustmentNoteRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(SALES_MSG.adjustmentReasonRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(SALES_MSG.adjustmentAmount)).toBeInTheDocument();
    expect(api.posts()).toEqual([]);

    await user.click(within(dialog).getByRole('radio', { name: 'Debit (take)' }));
    await user.clear(labelledField(dialog, 'Amount (₹)'));
    await user.type(labelledField(dialog, 'Amount (₹)'), '400.25');
    await user.type(labelledField(dialog, 'Note for the statement'), ' Correction ');
    await user.type(labelledField(dialog, 'Internal reason'), ' Duplicate credit ');
    await user.click(within(dialog).getByRole('button', { name: 'Send for approval' }));
    // A refusal keeps the dialog open with the server's message.
    expect(
      await screen.findByText('Error: Adjustment exceeds the available balance of ₹320.50'),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Adjust Wallet' })).toBeInTheDocument();

    refuse = false;
    await user.clear(labelledField(dialog, 'Amount (₹)'));
    await user.type(labelledField(dialog, 'Amount (₹)'), '50.25');
    await user.click(within(dialog).getByRole('button', { name: 'Send for approval' }));
    expect(await screen.findByText(SALES_MSG.adjustmentPending)).toBeInTheDocument();
    const sent = { userId: IDS.retailer, note: 'Correction', reason: 'Duplicate credit' };
    expect(api.posts()).toEqual([
      ['POST wallet/adjust', { ...sent, amount: '-400.25' }],
      ['POST wallet/adjust', { ...sent, amount: '-50.25' }],
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('an employee makes one from the Approvals screen, beside Record Payout: a credit; a single admin is said', async () => {
    login(UserType.EMPLOYEE);
    const api = ledgerServer(
      (request) =>
        jsonResponse(202, { result: pendingCommand(request), message: SALES_MSG.adjustmentPending }),
      { admins: 1 },
    );
    const user = userEvent.setup();
    renderAt('/approvals/list');
    expect(await screen.findByRole('button', { name: 'Record Payout' })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Adjust Wallet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adjust Wallet' });
    await pick(user, within(dialog).getByRole('combobox', { name: 'User Type' }), 'Retailer');
    await pick(user, within(dialog).getByRole('combobox', { name: 'User' }), 'Ganesh Mobile Store');
    await user.type(labelledField(dialog, 'Amount (₹)'), '75');
    await user.type(labelledField(dialog, 'Note for the statement'), 'Commission adjustment');
    await user.type(labelledField(dialog, 'Internal reason'), 'Commission missed by the partner');
    await user.click(within(dialog).getByRole('button', { name: 'Send for approval' }));
    // The 202's toast says so plainly while the network has a single admin, with the console command.
    const toast = await screen.findByText((text) => text.startsWith(SALES_MSG.adjustmentPending));
    expect(toast).toHaveTextContent(/This network has a single admin/);
    expect(toast).toHaveTextContent(/npm run admin -- create --userName <u> --name <n>/);
    expect(api.posts()).toEqual([
      [
        'POST wallet/adjust',
        {
          userId: IDS.retailer,
          amount: '75',
          note: 'Commission adjustment',
          reason: 'Commission missed by the partner',
        },
      ],
    ]);
  });

  it('an employee’s payout above the available balance is refused when made, with the server’s message', async () => {
    login(UserType.EMPLOYEE);
    const refused = SALES_MSG.payoutExceedsBalance('₹320.50');
    const api = ledgerServer(() => jsonResponse(500, { message: 'not this call' }), {
      payout: () => jsonResponse(400, { message: refused }),
    });
    const user = userEvent.setup();
    renderAt('/approvals/list');
    await user.click(await screen.findByRole('button', { name: 'Record Payout' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record Payout' });
    await pick(user, within(dialog).getByRole('combobox', { name: 'User Type' }), 'Retailer');
    await pick(user, within(dialog).getByRole('combobox', { name: 'User' }), 'Ganesh Mobile Store');
    expect(await within(dialog).findByText('Available balance: ₹320.50')).toBeInTheDocument();
    await user.type(labelledField(dialog, 'Amount (₹)'), '500');
    await user.type(labelledField(dialog, 'Reference'), 'NEFT-9');
    await user.click(within(dialog).getByRole('button', { name: 'Record Payout' }));
    expect(await screen.findByText(`Error: ${refused}`)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Record Payout' })).toBeInTheDocument();
    expect(api.posts()).toEqual([
      ['POST wallet/payout', { userId: IDS.retailer, amount: '500', reference: 'NEFT-9' }],
    ]);
  });

  it('is not offered to a role that may not make adjustments', async () => {
    login(UserType.RETAILER);
    ledgerServer(() => jsonResponse(403, { message: MSG.forbidden }));
    const queryClient = new QueryClient();
    renderAt('/approvals/list', queryClient);
    // The screen renders for the retailer here (App guards the route itself); once the role checks have
    // answered, no ledger action is offered.
    await screen.findByRole('heading', { level: 1, name: 'Approvals' });
    await waitForSettled(queryClient);
    expect(screen.queryByRole('button', { name: 'Record Payout' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Adjust Wallet' })).not.toBeInTheDocument();
  });
});
