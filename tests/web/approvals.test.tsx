import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { APPROVAL_MSG } from '../../src/shared/constants/approvals';
import { UserType } from '../../src/shared/enums';
import { SALES_MSG } from '../../src/shared/schemas/sales';
import type { WireCommand } from '../../src/shared/wire';
import { Menu } from '../../src/web/layout/Menu';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { ApprovalList } from '../../src/web/resources/approvals/ApprovalList';
import { jsonResponse, renderInAdmin, wireCommand, wireUser } from './helpers';

/** The default command's id (a payout). */
const PAYOUT_ID = wireCommand()._id;
const ADJUST_ID = '88888888-8888-4888-8888-888888888888';
const OTHER_ID = '66666666-6666-4666-8666-666666666666';

/** The signed-in user's id (wireUser's). */
const ME = 'u-1';

const login = (type: UserType = UserType.ADMIN) => {
  const user = wireUser({ _id: ME, type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

/**
 * The server as the panel sees it: two pending commands (or `commands`); approve pays (or refuses the maker), reject
 * needs a reason; `admins` admins in the network.
 */
const stubServer = ({
  refuseApproval = false,
  admins = 2,
  commands = [
    wireCommand(),
    wireCommand({
      _id: ADJUST_ID,
      kind: 'ADJUSTMENT',
      amount: -150.5,
      reference: null,
      note: 'Correction',
      reason: 'Duplicate credit',
    }),
  ],
  oneTimePassword,
}: {
  refuseApproval?: boolean;
  admins?: number;
  commands?: WireCommand[];
  oneTimePassword?: string;
} = {}) => {
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://x');
    const path = url.pathname.replace('/api/v1/', '');
    const status = url.searchParams.get('status');
    if (path === 'approvals/admins') return jsonResponse(200, { result: { admins } });
    if (path === 'approvals/fetch') {
      const rows = commands.filter((c) => !status || c.status === status);
      return jsonResponse(200, { result: { approvals: rows, totalCounts: rows.length } });
    }
    const decided = commands.find((c) => path.endsWith(c._id));
    if (decided && path.startsWith('approvals/approve/')) {
      if (refuseApproval) return jsonResponse(403, { message: SALES_MSG.makerCannotDecide });
      decided.status = 'APPROVED';
      return jsonResponse(200, {
        result: { ...decided, ...(oneTimePassword ? { oneTimePassword } : {}) },
        message: oneTimePassword ? APPROVAL_MSG.adminCreated : SALES_MSG.commandApproved,
      });
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

/** A row's cells by their column's header. */
const cellsOf = (row: HTMLElement) => {
  const headers = within(row.closest('table')!)
    .getAllByRole('columnheader')
    .map((h) => h.textContent ?? '');
  const cells = within(row).getAllByRole('cell');
  return (header: string) => cells[headers.indexOf(header)]?.textContent ?? `(no column ${header})`;
};

describe('Approvals (maker-checker)', () => {
  it('lists pending commands: reference or note and the internal reason each in its own column; counts them in the menu', async () => {
    login();
    stubServer();
    renderScreen();
    expect(await screen.findByRole('heading', { level: 1, name: 'Approvals' })).toBeInTheDocument();
    const payout = cellsOf((await screen.findByText('UTR-4411')).closest('tr')!);
    expect(['Kind', 'User', 'Amount', 'Reference / Note', 'Reason', 'Made By', 'Status'].map(payout)).toEqual(
      ['PAYOUT', 'Rita Retailer', '₹25,000.00', 'UTR-4411', '', 'Esha Employee', 'PENDING'],
    );
    const adjustment = cellsOf(screen.getByText('Duplicate credit').closest('tr')!);
    expect(['Kind', 'Amount', 'Reference / Note', 'Reason'].map(adjustment)).toEqual([
      'ADJUSTMENT',
      '-₹150.50',
      'Correction',
      'Duplicate credit',
    ]);
    expect(screen.queryByText(/This network has a single admin/)).not.toBeInTheDocument();
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

  it('offers no Approve or Reject on one’s own command, nor on one about oneself', async () => {
    login();
    stubServer({
      commands: [
        wireCommand({ reference: 'MINE-1', maker: { _id: ME, name: 'asha admin' } }),
        wireCommand({
          _id: ADJUST_ID,
          kind: 'ADMIN_PASSWORD_RESET',
          amount: null,
          reference: null,
          reason: 'Lost the password',
          user: { _id: ME, name: 'asha admin', type: UserType.ADMIN },
          maker: { _id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', name: 'bina admin' },
        }),
        wireCommand({ _id: OTHER_ID, reference: 'OTHERS-1' }),
      ],
    });
    renderScreen();
    const row = async (text: string) => (await screen.findByText(text)).closest('tr')!;
    expect(
      within(await row('OTHERS-1')).getByRole('button', { name: /^Approve the payout of ₹25,000.00/ }),
    ).toBeInTheDocument();
    for (const text of ['MINE-1', 'Lost the password']) {
      expect(within(await row(text)).queryByRole('button', { name: /^Approve / })).not.toBeInTheDocument();
      expect(within(await row(text)).queryByRole('button', { name: /^Reject / })).not.toBeInTheDocument();
    }
    expect(cellsOf(await row('Lost the password'))('Kind')).toBe('Admin password reset');
  });

  it('says plainly while the network has a single admin, with the console command that adds one', async () => {
    login();
    stubServer({ admins: 1 });
    renderScreen();
    const notice = await screen.findByText(/This network has a single admin/);
    expect(notice).toHaveTextContent(
      "nobody can approve that admin's own commands (its payouts that need a second person, its adjustments, a new admin)",
    );
    expect(notice).toHaveTextContent(
      'npm run admin -- create --userName <u> --name <n> [--email <e>] [--mobile <m>]',
    );
  });

  it('shows an approved admin creation’s one-time password to the checker, once', async () => {
    login();
    const fetch = stubServer({
      commands: [
        wireCommand({
          _id: ADJUST_ID,
          kind: 'ADMIN_CREATE',
          user: null,
          amount: null,
          reference: null,
          details: { name: 'nila new', userName: 'nila', email: null, mobile: null },
          maker: { _id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', name: 'bina admin' },
        }),
      ],
      oneTimePassword: 'Q2x9-fK3mVb7_TzA',
    });
    const user = userEvent.setup();
    renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Approve the new admin for Nila New' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve Command' });
    expect(dialog).toHaveTextContent('The new admin for Nila New happens now');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    const shown = await screen.findByRole('dialog', { name: 'One-Time Password' });
    expect(within(shown).getByText('Q2x9-fK3mVb7_TzA')).toBeInTheDocument();
    expect(shown).toHaveTextContent(
      'Hand this one-time password to Nila New in person: it is shown only now.',
    );
    expect(await screen.findByText(APPROVAL_MSG.adminCreated)).toBeInTheDocument();
    expect(posts(fetch)).toEqual([[`/api/v1/approvals/approve/${ADJUST_ID}`, {}]]);
    await user.click(within(shown).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText('Q2x9-fK3mVb7_TzA')).not.toBeInTheDocument());
  });

  it('shows the maker every command it made, with the decision: who, when, and a rejection’s reason', async () => {
    login(UserType.EMPLOYEE);
    stubServer({
      commands: [
        wireCommand({ maker: { _id: ME, name: 'esha employee' }, reference: 'WAITS-1' }),
        wireCommand({
          _id: ADJUST_ID,
          reference: 'REFUSED-1',
          maker: { _id: ME, name: 'esha employee' },
          status: 'REJECTED',
          checker: { _id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', name: 'bina admin' },
          rejectionReason: 'Bank details not verified',
          decidedAt: '2026-11-26T06:45:00.000Z',
        }),
      ],
    });
    renderScreen();
    expect(await screen.findByText('WAITS-1')).toBeInTheDocument();
    const rejected = cellsOf((await screen.findByText('REFUSED-1')).closest('tr')!);
    expect(['Status', 'Decided By', 'Rejection Reason'].map(rejected)).toEqual([
      'REJECTED',
      'Bina Admin',
      'Bank details not verified',
    ]);
    expect(rejected('Decided At')).toMatch(/^Nov 26, 2026, \d{1,2}:\d{2}:\d{2}/);
  });
});
