import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { formatDate } from '../../src/shared/format';
import type { BooksFetchResult, ReconcileRun, SettlePreview } from '../../src/shared/schemas/books';
import type { ReconcileReport } from '../../src/shared/wire';
import { Menu } from '../../src/web/layout/Menu';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { BooksPage } from '../../src/web/resources/books/BooksPage';
import { jsonResponse, renderInAdmin, wireUser } from './helpers';

const ADMIN_ID = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

const login = (type: UserType = UserType.ADMIN) => {
  const user = wireUser({ _id: ADMIN_ID, type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const report = (over: Partial<ReconcileReport> = {}): ReconcileReport => ({
  ok: true,
  checkedAt: '2026-11-26T06:15:00.000Z',
  sales: { confirmed: 5, reversed: 1 },
  postings: 1234,
  wallets: 17,
  totals: { balance: 1000, clearingBalance: 250, owed: 12.5 },
  breaks: [],
  ...over,
});

const run = (over: Partial<ReconcileRun> = {}): ReconcileRun => ({
  _id: 'r-1',
  ranAt: '2026-11-26T06:15:00.000Z',
  ok: true,
  source: 'HTTP',
  ranBy: { _id: ADMIN_ID, name: 'asha admin' },
  report: report(),
  ...over,
});

interface Server {
  books?: Partial<BooksFetchResult>;
  failBooks?: boolean;
  preview?: SettlePreview;
  /** Holds the Run's answer until released, so the test sees the progress a user sees. */
  holdRun?: Promise<void>;
  nextRun?: ReconcileRun;
}

const stubServer = (server: Server = {}) => {
  const state = {
    books: {
      reconcile: null,
      wallet: { balance: 4321.5, clearingBalance: 75.25 },
      tdsPayable: 880.4,
      owed: 12.5,
      ...server.books,
    } as BooksFetchResult,
    preview: server.preview ?? { settled: 3, users: 2, amount: 456.78, tds: 9.14 },
  };
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = new URL(String(input), 'http://x').pathname.replace('/api/v1/', '');
    if (path === 'books/fetch')
      return server.failBooks
        ? jsonResponse(500, { message: 'Something went wrong' })
        : jsonResponse(200, { result: state.books });
    // The menu's count of commands waiting for approval.
    if (path === 'approvals/fetch') return jsonResponse(200, { result: { approvals: [], totalCounts: 0 } });
    if (path === 'books/settlePreview') return jsonResponse(200, { result: state.preview });
    if (path === 'books/reconcile' && init.method === 'POST') {
      await server.holdRun;
      state.books = { ...state.books, reconcile: server.nextRun ?? run() };
      return jsonResponse(200, { result: state.books.reconcile });
    }
    if (path === 'wallet/settle' && init.method === 'POST') {
      const settled = state.preview.settled;
      state.preview = { settled: 0, users: 0, amount: 0, tds: 0 };
      return jsonResponse(200, {
        result: { settled, amount: 456.78, users: 2 },
        message: `${settled} commissions settled`,
      });
    }
    return jsonResponse(404, { message: `not stubbed: ${path}` });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
};

const posts = (fetch: ReturnType<typeof stubServer>) =>
  fetch.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([url, init]) => [String(url), init?.body ? JSON.parse(String(init.body)) : undefined]);

const renderBooks = () =>
  render(
    renderInAdmin(
      <>
        <Menu />
        <Routes>
          <Route path="/books" element={<BooksPage />} />
        </Routes>
      </>,
      { path: '/books', dataProvider: createDataProvider() },
    ),
  );

const figure = (name: string) => screen.getByRole('listitem', { name });
const section = (name: string) => screen.getByRole('region', { name });

describe('Books', () => {
  it("shows the admin's wallet, TDS payable, what wallets owe, and says reconcile never ran", async () => {
    login();
    stubServer();
    renderBooks();
    expect(await screen.findByRole('heading', { level: 1, name: 'Books' })).toBeInTheDocument();
    expect(
      await screen.findByText('Reconcile has not run yet. Run it to prove the books.'),
    ).toBeInTheDocument();
    expect(within(figure('My Wallet: Balance')).getByText('₹4,321.50')).toBeInTheDocument();
    expect(within(figure('My Wallet: Clearing Balance')).getByText('₹75.25')).toBeInTheDocument();
    expect(within(figure('TDS Payable')).getByText('₹880.40')).toBeInTheDocument();
    expect(within(figure('Owed to the Network')).getByText('₹12.50')).toBeInTheDocument();
    // The menu links here for an admin.
    expect(screen.getByRole('menuitem', { name: /Books/ })).toBeInTheDocument();
  });

  it('runs reconcile with progress while it runs, then shows the result and when', async () => {
    login();
    let release = () => {};
    const fetch = stubServer({ holdRun: new Promise<void>((resolve) => (release = resolve)) });
    const user = userEvent.setup();
    renderBooks();
    await user.click(await screen.findByRole('button', { name: 'Run' }));
    const busy = await screen.findByRole('button', { name: 'Reconciling...' });
    expect(busy).toBeDisabled();
    release();
    expect(await screen.findByText(/The books hold: every sale/)).toBeInTheDocument();
    expect(await screen.findByText('Reconcile finished: the books hold')).toBeInTheDocument();
    const reconcile = section('Reconcile');
    expect(within(reconcile).getByText(formatDate('2026-11-26T06:15:00.000Z'))).toBeInTheDocument();
    expect(within(reconcile).getByText('Asha Admin')).toBeInTheDocument();
    expect(within(reconcile).getByText('1,234')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run' })).toBeEnabled();
    expect(posts(fetch)).toEqual([['/api/v1/books/reconcile', {}]]);
  });

  it('lists the findings of a run that found breaks, and names the command line when it ran there', async () => {
    login();
    stubServer({
      books: {
        reconcile: run({
          ok: false,
          source: 'CLI',
          ranBy: null,
          report: report({ ok: false, breaks: [{ check: 'wallet-sum', detail: 'wallet 42: balance 1/0' }] }),
        }),
      },
    });
    renderBooks();
    const findings = await screen.findByRole('list', { name: 'Findings' });
    expect(within(findings).getByText('wallet 42: balance 1/0')).toBeInTheDocument();
    expect(screen.getByText('1 finding')).toBeInTheDocument();
    expect(screen.getByText('The command line (npm run reconcile)')).toBeInTheDocument();
  });

  it('says the books could not be loaded, with Retry, rather than that reconcile never ran', async () => {
    login();
    stubServer({ failBooks: true });
    renderBooks();
    expect(await screen.findByText('Could not load the books.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.queryByText(/Reconcile has not run yet/)).not.toBeInTheDocument();
    expect(screen.queryByText('₹4,321.50')).not.toBeInTheDocument();
  });

  it('previews settle all, shows the preview again in the confirm dialog, then settles everyone', async () => {
    login();
    const fetch = stubServer();
    const user = userEvent.setup();
    renderBooks();
    const settle = await screen.findByRole('region', { name: 'Settle All' });
    expect(await within(settle).findByText('₹456.78')).toBeInTheDocument();
    expect(within(settle).getByText('₹9.14')).toBeInTheDocument();
    expect(within(settle).getByText('3')).toBeInTheDocument();
    await user.click(within(settle).getByRole('button', { name: 'Settle All' }));
    const dialog = await screen.findByRole('dialog', { name: 'Settle All Commissions' });
    expect(await within(dialog).findByText('₹456.78')).toBeInTheDocument();
    expect(within(dialog).getByText('₹9.14')).toBeInTheDocument();
    expect(posts(fetch)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Settle All' }));
    expect(await screen.findByText('3 commissions settled')).toBeInTheDocument();
    expect(posts(fetch)).toEqual([['/api/v1/wallet/settle', { all: true }]]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await within(settle).findByText('Nothing waits in clearing.')).toBeInTheDocument();
    expect(within(settle).getByRole('button', { name: 'Settle All' })).toBeDisabled();
  });

  it('is not in the menu of an employee', async () => {
    login(UserType.EMPLOYEE);
    stubServer();
    render(renderInAdmin(<Menu />, { dataProvider: createDataProvider() }));
    expect(await screen.findByRole('menuitem', { name: /Approvals/ })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /Books/ })).not.toBeInTheDocument();
  });
});
