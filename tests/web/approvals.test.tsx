import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { SALES_MSG } from '../../src/shared/schemas/sales';
import type { WireCommand } from '../../src/shared/wire';
import { Menu } from '../../src/web/layout/Menu';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { ApprovalList } from '../../src/web/resources/approvals/ApprovalList';
import { jsonResponse, renderInAdmin, wireUser } from './helpers';

const PAYOUT_ID = '77777777-7777-4777-8777-777777777777';
const ADJUST_ID = '88888888-8888-4888-8888-888888888888';

const command = (overrides: Partial<WireCommand>): WireCommand => ({
  _id: PAYOUT_ID,
  kind: 'PAYOUT',
  status: 'PENDING',
  user: { _id: '99999999-9999-4999-8999-999999999999', name: 'rita retailer', type: UserType.RETAILER },
  amount: 25000,
  reference: 'UTR-4411',
  note: null,
  reason: null,
  details: null,
  maker: { _id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', name: 'esha employee' },
  checker: null,
  rejectionReason: null,
  postingId: null,
  createdAt: '2026-11-26T05:30:00.000Z',
  decidedAt: null,
  ...overrides,
});

const login = (type: UserType = UserType.ADMIN) => {
  const user = wireUser({ type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

/** The server as the panel sees it: two pending commands; approve pays (or refuses the maker), reject needs a reason. */
const stubServer = ({ refuseApproval = false } = {}) => {
  const commands = [
    command({}),
    command({
      _id: ADJUST_ID,
      kind: 'ADJUSTMENT',
      amount: -150.5,
      reference: null,
      reason: 'Duplicate credit',
    }),
  ];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://x');
    const path = url.pathname.replace('/api/v1/', '');
    const status = url.searchParams.get('status');
    if (path === 'approvals/fetch') {
      const rows = commands.filter((c) => !status || c.status === status);
      return jsonResponse(200, { result: { approvals: rows, totalCounts: rows.length } });
    }
    const decided = commands.find((c) => path.endsWith(c._id));
    if (decided && path.startsWith('approvals/approve/')) {
      if (refuseApproval) return jsonResponse(403, { message: SALES_MSG.makerCannotDecide });
      decided.status = 'APPROVED';
      return jsonResponse(200, { result: decided, message: SALES_MSG.commandApproved });
    }
    if (decided && path.startsWith('approvals/reject/')) {
      const { reason } = JSON.parse(String(init.body));
      decided.status = 'REJECTED';
      decided.rejectionReason = reason;
      return jsonResponse(200, { result: decided, message: SALES_MSG.commandRejected });
    }
    return jsonResponse(404, { message: `not stubbed: ${path}` });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
};

const renderScreen = () =>
  render(
    renderInAdmin(
      <>
        <Menu />
        <Routes>
          <Route path="/approvals/list" element={<ApprovalList />} />
        </Routes>
      </>,
      { path: '/approvals/list', dataProvider: createDataProvider() },
    ),
  );

const posts = (fetch: ReturnType<typeof stubServer>) =>
  fetch.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([url, init]) => [String(url), init?.body ? JSON.parse(String(init.body)) : undefined]);

describe('Approvals (maker-checker)', () => {
  it('lists pending commands with kind, user, amount, maker, created and reason, and counts them in the menu', async () => {
    login();
    stubServer();
    renderScreen();
    expect(await screen.findByRole('heading', { level: 1, name: 'Approvals' })).toBeInTheDocument();
    const payout = (await screen.findByText('UTR-4411')).closest('tr')!;
    for (const text of ['PAYOUT', 'Rita Retailer', '₹25,000.00', 'Esha Employee', 'PENDING'])
      expect(within(payout).getByText(text)).toBeInTheDocument();
    const adjustment = screen.getByText('Duplicate credit').closest('tr')!;
    for (const text of ['ADJUSTMENT', '-₹150.50'])
      expect(within(adjustment).getByText(text)).toBeInTheDocument();
    const link = await screen.findByRole('menuitem', { name: /Approvals/ });
    expect(await within(link).findByLabelText('2 commands waiting')).toBeInTheDocument();
  });

  it('approves a command after confirming, and says the money moved', async () => {
    login();
    const fetch = stubServer();
    const user = userEvent.setup();
    renderScreen();
    await user.click(
      await screen.findByRole('button', { name: 'Approve the payout of ₹25,000.00 for Rita Retailer' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Approve Command' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(SALES_MSG.commandApproved)).toBeInTheDocument();
    expect(posts(fetch)).toEqual([[`/api/v1/approvals/approve/${PAYOUT_ID}`, {}]]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The list reads again: the approved command left the pending view, and the count with it.
    await waitFor(() => expect(screen.queryByText('UTR-4411')).not.toBeInTheDocument());
    const link = screen.getByRole('menuitem', { name: /Approvals/ });
    expect(await within(link).findByLabelText('1 command waiting')).toBeInTheDocument();
  });

  it('shows the server’s refusal (the maker) and keeps the dialog open', async () => {
    login();
    stubServer({ refuseApproval: true });
    const user = userEvent.setup();
    renderScreen();
    await user.click(
      await screen.findByRole('button', { name: 'Approve the payout of ₹25,000.00 for Rita Retailer' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Approve Command' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(`Error: ${SALES_MSG.makerCannotDecide}`)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Approve Command' })).toBeInTheDocument();
  });

  it('rejects only with a reason, and sends it', async () => {
    login();
    const fetch = stubServer();
    const user = userEvent.setup();
    renderScreen();
    await user.click(
      await screen.findByRole('button', { name: 'Reject the adjustment of -₹150.50 for Rita Retailer' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Reject Command' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText(SALES_MSG.rejectionReasonRequired)).toBeInTheDocument();
    expect(posts(fetch)).toEqual([]);
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Not a duplicate');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText(SALES_MSG.commandRejected)).toBeInTheDocument();
    expect(posts(fetch)).toEqual([[`/api/v1/approvals/reject/${ADJUST_ID}`, { reason: 'Not a duplicate' }]]);
  });

  it('lets an employee record payouts there and see its own commands, but decide none', async () => {
    login(UserType.EMPLOYEE);
    stubServer();
    renderScreen();
    expect(await screen.findByText('UTR-4411')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Record Payout' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Approve the/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Reject the/ })).not.toBeInTheDocument();
  });
});
