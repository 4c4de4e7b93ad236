import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { monthOf } from '../../src/shared/constants/statements';
import { UserType } from '../../src/shared/enums';
import type { Statement } from '../../src/shared/schemas/statements';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { DistributorList } from '../../src/web/resources/distributors/DistributorList';
import { RetailerList } from '../../src/web/resources/retailers/RetailerList';
import { StatementPage } from '../../src/web/resources/statements/StatementPage';
import { cellTexts, jsonResponse, renderInAdmin, wireUser } from './helpers';
import { answer, listOf, stubServer } from './salesServer';

const RETAILER = '00000000-0000-4000-8000-000000000007';
const ADMIN = '00000000-0000-4000-8000-000000000001';

const login = (type: UserType, id: string) => {
  const user = wireUser({ _id: id, type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const line = (overrides: Partial<Statement['lines'][number]>): Statement['lines'][number] => ({
  _id: 'p-1',
  createdAt: '2026-11-03T05:40:00.000Z',
  date: '2026-11-03',
  time: '11:10:00',
  kind: 'COMMISSION',
  transactionType: 'CREDIT',
  balanceType: 'CLEARING',
  reference: 'SBX1',
  boughtProductId: 'b-1',
  product: 'Saving Account',
  customer: { name: 'pooja patel', mobile: '94XXXXXX04' },
  amount: 100,
  tax: null,
  balance: 250,
  clearingBalance: 100,
  ...overrides,
});

const statementOf = (month: string, lines: Statement['lines']): Statement => ({
  user: { _id: RETAILER, name: 'rekha retail', type: UserType.RETAILER },
  month,
  from: `${month}-01`,
  to: `${month}-30`,
  opening: { balance: 250, clearingBalance: 0 },
  closing: lines.length
    ? { balance: lines.at(-1)!.balance, clearingBalance: lines.at(-1)!.clearingBalance }
    : { balance: 250, clearingBalance: 0 },
  lines,
});

const LINES = [
  line({}),
  line({
    _id: 'p-2',
    createdAt: '2026-11-20T06:30:00.000Z',
    date: '2026-11-20',
    time: '12:00:00',
    kind: 'PAYOUT',
    transactionType: 'DEBIT',
    balanceType: 'AVAILABLE',
    reference: 'NEFT-77',
    boughtProductId: null,
    product: null,
    customer: null,
    amount: 50,
    balance: 200,
    clearingBalance: 100,
  }),
];

const statementServer = (lines: Record<string, Statement['lines']>) =>
  answer('GET', 'statements/fetch', (request) => {
    const month = request.query.get('month') ?? '';
    if (request.query.get('format'))
      return new Response('a,b\r\n', { headers: { 'content-type': 'text/csv' } });
    return jsonResponse(200, { result: statementOf(month, lines[month] ?? []) });
  });

const renderStatements = (path = '/statements', locale?: 'en' | 'hi') =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/statements" element={<StatementPage />} />
        <Route path="/statements/:userId" element={<StatementPage />} />
        <Route path="/retailer/list" element={<RetailerList />} />
        <Route path="/distributor/list" element={<DistributorList />} />
      </Routes>,
      { path, dataProvider: createDataProvider(), locale },
    ),
  );

describe('Statements', () => {
  it('shows a tier user its own statement of this month: opening, every line, closing', async () => {
    login(UserType.RETAILER, RETAILER);
    const month = monthOf(new Date());
    const api = stubServer(statementServer({ [month]: LINES }));
    renderStatements();
    expect(screen.getByRole('heading', { level: 1, name: 'Statements' })).toBeInTheDocument();
    expect(screen.getByLabelText('Month')).toHaveValue(month);
    const table = await screen.findByRole('table', { name: `Postings of ${month}` });
    expect(api.requests[0].path).toBe('statements/fetch');
    expect(Object.fromEntries(api.requests[0].query)).toEqual({ userId: RETAILER, month });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual([
      'Date and time',
      'Kind',
      'Balance',
      'Sale or payout',
      'Product',
      'Customer',
      'Credit',
      'Debit',
      'Tax (TDS)',
      'Available balance',
      'Clearing balance',
    ]);
    const rows = within(table).getAllByRole('row').slice(1);
    // India's time in the seed's medium format, with seconds (issue 53).
    expect(cellTexts(rows[0])).toEqual([
      'Nov 3, 2026, 11:10:00 AM',
      'COMMISSION',
      'CLEARING',
      'SBX1',
      'Saving Account',
      'Pooja Patel 94XXXXXX04',
      '₹100.00',
      '',
      '',
      '₹250.00',
      '₹100.00',
    ]);
    expect(cellTexts(rows[1])).toEqual([
      'Nov 20, 2026, 12:00:00 PM',
      'PAYOUT',
      'AVAILABLE',
      'NEFT-77',
      '',
      '',
      '',
      '₹50.00',
      '',
      '₹200.00',
      '₹100.00',
    ]);
    const opening = screen.getByRole('listitem', { name: 'Opening balance' });
    expect(opening).toHaveTextContent('₹250.00');
    expect(opening).toHaveTextContent('₹0.00');
    const closing = screen.getByRole('listitem', { name: 'Closing balance' });
    expect(closing).toHaveTextContent('₹200.00');
    expect(closing).toHaveTextContent('₹100.00');
  });

  it('asks for the month picked; a month without postings says so and keeps its balances', async () => {
    login(UserType.RETAILER, RETAILER);
    const api = stubServer(statementServer({}));
    renderStatements();
    expect(await screen.findByText('No postings in this month')).toBeInTheDocument();
    // A month input takes a whole month at once (the browser's picker), not one character at a time.
    fireEvent.change(screen.getByLabelText('Month'), { target: { value: '2026-05' } });
    await waitFor(() => expect(api.requests.at(-1)?.query.get('month')).toBe('2026-05'));
    expect(await screen.findByText('No postings in this month')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Closing balance' })).toHaveTextContent('₹250.00');
  });

  it('says when the statement could not be loaded, and Retry asks again', async () => {
    login(UserType.RETAILER, RETAILER);
    let calls = 0;
    const month = monthOf(new Date());
    stubServer(
      answer('GET', 'statements/fetch', () => {
        calls += 1;
        return calls === 1
          ? jsonResponse(500, { message: 'Something went wrong on our side. Please try again.' })
          : jsonResponse(200, { result: statementOf(month, LINES) });
      }),
    );
    const user = userEvent.setup();
    renderStatements();
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent('The statement could not be loaded.'));
    expect(screen.queryByText('No postings in this month')).not.toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(calls).toBe(2);
  });

  it('downloads the month as CSV and as PDF', async () => {
    login(UserType.RETAILER, RETAILER);
    const month = monthOf(new Date());
    const api = stubServer(statementServer({ [month]: LINES }));
    const made = vi.fn((_blob: Blob) => 'blob:statement');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: made, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    renderStatements();
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(Object.fromEntries(api.requests.at(-1)!.query)).toEqual({
      userId: RETAILER,
      month,
      format: 'csv',
      lang: 'en',
    });
    expect(await made.mock.calls[0][0].text()).toBe('a,b\r\n');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe(`statement-${month}.csv`);
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(2));
    expect(api.requests.at(-1)!.query.get('format')).toBe('pdf');
    expect(api.requests.at(-1)!.query.get('lang')).toBe('en');
    expect((click.mock.contexts[1] as HTMLAnchorElement).download).toBe(`statement-${month}.pdf`);
    click.mockRestore();
  });

  it('downloads the PDF in Hindi when the panel is in Hindi', async () => {
    login(UserType.RETAILER, RETAILER);
    const month = monthOf(new Date());
    const api = stubServer(statementServer({ [month]: LINES }));
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:statement'), revokeObjectURL: vi.fn() }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    renderStatements('/statements', 'hi');
    const table = await screen.findByRole('table');
    // India's time in Hindi's medium format: Hindi month names, a 24-hour clock, seconds (issue 53).
    expect(within(table).getByText('3 नव॰ 2026, 11:10:00')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'PDF डाउनलोड करें' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(Object.fromEntries(api.requests.at(-1)!.query)).toEqual({
      userId: RETAILER,
      month,
      format: 'pdf',
      lang: 'hi',
    });
    click.mockRestore();
  });

  it("lets staff open a retailer's statements from its row", async () => {
    login(UserType.ADMIN, ADMIN);
    const month = monthOf(new Date());
    const api = stubServer(
      listOf('account/fetch', 'users', () => [
        wireUser({
          _id: RETAILER,
          name: 'rekha retail',
          type: UserType.RETAILER,
          mobile: { number: '9300000002' },
        }),
      ]),
      statementServer({ [month]: LINES }),
    );
    const user = userEvent.setup();
    renderStatements('/retailer/list');
    await user.click(await screen.findByRole('button', { name: 'Statements of Rekha Retail' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Statements of Rekha Retail' }),
    ).toBeInTheDocument();
    const fetched = api.requests.filter((r) => r.path === 'statements/fetch');
    expect(fetched[0].query.get('userId')).toBe(RETAILER);
  });

  it('offers no Statements row action to a tier user (it reads only its own, from the menu)', async () => {
    login(UserType.MASTER_DISTRIBUTOR, ADMIN);
    stubServer(
      listOf('account/fetch', 'users', () => [
        wireUser({ _id: RETAILER, name: 'dev distributor', type: UserType.DISTRIBUTOR }),
      ]),
    );
    renderStatements('/distributor/list');
    expect(await screen.findByText('Dev Distributor')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Statements of/ })).not.toBeInTheDocument();
  });
});
