import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { formatDate } from '../../src/shared/format';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { SaleList } from '../../src/web/resources/sales/SaleList';
import { SalePage } from '../../src/web/resources/sales/SalePage';
import { bodyRows, jsonResponse, renderInAdmin, wireUser } from './helpers';
import { IDS, SALE_POSTINGS, wireSale } from './salesFixtures';
import { stubServer } from './salesServer';

const login = (type: UserType) => {
  const user = wireUser({ type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const PENDING = wireSale({
  _id: IDS.customer, // any other uuid
  status: 'PENDING',
  utmCode: 'UTMPENDING',
  confirmedAt: null,
  customerId: { _id: IDS.customer, name: 'sunita devi' },
});

/** bought_products/fetch: the list, or one sale by _id with its postings. */
const salesServer = (opening?: () => Response) =>
  stubServer((request) => {
    if (opening && request.path === `bought_products/opening/${PENDING._id}`) return opening();
    if (request.path !== 'bought_products/fetch') return undefined;
    const id = request.query.get('_id');
    if (id === IDS.sale)
      return jsonResponse(200, {
        result: { boughtProducts: [wireSale({ postings: SALE_POSTINGS })], totalCounts: 1 },
      });
    if (id === PENDING._id)
      return jsonResponse(200, {
        result: { boughtProducts: [{ ...PENDING, postings: [] }], totalCounts: 1 },
      });
    if (id) return jsonResponse(404, { message: 'Sale not found' });
    return jsonResponse(200, { result: { boughtProducts: [wireSale(), PENDING], totalCounts: 2 } });
  });

const renderSales = (path = '/sale/list', locale?: 'hi') =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/sale/list" element={<SaleList />} />
        <Route path="/sale/:id" element={<SalePage />} />
      </Routes>,
      { path, dataProvider: createDataProvider(), locale },
    ),
  );

const headers = () => screen.getAllByRole('columnheader').map((cell) => cell.textContent);

describe('Sales list', () => {
  it('shows customer, retailer, product, amount, utmCode, status, created and confirmed at; filters by status and search', async () => {
    login(UserType.ADMIN);
    const api = salesServer();
    const user = userEvent.setup();
    renderSales();
    const row = (await screen.findByText('UTM12345')).closest('tr') as HTMLElement;
    expect(screen.getByRole('heading', { level: 1, name: 'Sales' })).toBeInTheDocument();
    expect(headers()).toEqual([
      'Customer',
      'Retailer',
      'Product',
      'Amount',
      'utmCode',
      'Status',
      'Created At',
      'Confirmed At',
      // Reopen, on PENDING rows, for the roles that sell.
      'Actions',
    ]);
    for (const text of [
      'Ramesh Kumar',
      'Ganesh Mobile Store',
      'Saving Account',
      '₹500.00',
      'CONFIRMED',
      formatDate('2026-11-22T09:00:00.000Z'),
      formatDate('2026-11-22T09:30:00.000Z'),
    ])
      expect(within(row).getAllByText(text).length).toBeGreaterThan(0);
    const pending = screen.getByText('UTMPENDING').closest('tr') as HTMLElement;
    expect(within(pending).getByText('PENDING')).toBeInTheDocument();
    expect(within(pending).getByText('Sunita Devi')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'FAILED' }));
    await waitFor(() =>
      expect(
        api.requests.some((r) => r.path === 'bought_products/fetch' && r.query.get('status') === 'FAILED'),
      ).toBe(true),
    );
    await user.type(screen.getByPlaceholderText('Search'), 'ramesh');
    await waitFor(() =>
      expect(
        api.requests.some(
          (r) => r.query.get('searchText') === 'ramesh' && r.query.get('status') === 'FAILED',
        ),
      ).toBe(true),
    );
  });

  it("a row opens the sale's page: its fields, the frozen split and its five postings", async () => {
    login(UserType.RETAILER);
    salesServer();
    const user = userEvent.setup();
    renderSales();
    await user.click(await screen.findByRole('link', { name: 'Open the sale UTM12345' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sale UTM12345' })).toBeInTheDocument();
    const details = screen.getByRole('region', { name: 'Details' });
    for (const text of [
      'CONFIRMED',
      'Ramesh Kumar',
      'PayU Sprint Bank',
      'PAYUSPRINT-SAVING',
      '₹500.00',
      'MERCHANT-7',
    ])
      expect(within(details).getByText(text)).toBeInTheDocument();

    const shares = bodyRows(screen.getByRole('table', { name: 'Commission Split' }));
    expect(shares).toEqual([
      ['Admin', 'Tierdesk Admin', '40%', '₹200.00'],
      ['Master Distributor', 'Suresh Traders', '15%', '₹75.00'],
      ['Distributor', 'Jaipur Digital Seva', '15%', '₹75.00'],
      ['Retailer', 'Ganesh Mobile Store', '20%', '₹100.00'],
      ['Customer', 'Ramesh Kumar', '10%', '₹50.00'],
    ]);

    const postings = await screen.findByRole('table', { name: 'Postings' });
    const rows = within(postings).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(5);
    expect(within(rows[3]).getByText('Ganesh Mobile Store')).toBeInTheDocument();
    expect(within(rows[3]).getByText('₹100.00')).toBeInTheDocument();
    expect(within(rows[3]).getByText('CREDIT')).toBeInTheDocument();
    expect(within(rows[3]).getByText('CLEARING')).toBeInTheDocument();
    // Transactions is an admin screen: a retailer gets no link to it.
    expect(screen.queryByRole('link', { name: 'Show in Transactions' })).not.toBeInTheDocument();
  });

  it("in Hindi, the sale's page names every code, date and label in Hindi (issue 44)", async () => {
    login(UserType.RETAILER);
    salesServer();
    renderSales(`/sale/${IDS.sale}`, 'hi');
    const postings = await screen.findByRole('table', { name: 'प्रविष्टियाँ' });
    const row = within(postings).getAllByRole('row')[4];
    for (const text of ['कमीशन', 'जमा', 'क्लियरिंग में', '₹100.00'])
      expect(within(row).getByText(text)).toBeInTheDocument();
    // Hindi month names (medium date, 24-hour clock: no Latin 'am'/'pm').
    expect(within(row).getByText(/^22 नव॰ 2026, \d{2}:\d{2}:\d{2}$/)).toBeInTheDocument();
    const details = screen.getByRole('region', { name: 'विवरण' });
    expect(within(details).getByText('यूटीएम कोड')).toBeInTheDocument();
    expect(within(details).getByText('PAYUSPRINT बचत')).toBeInTheDocument();
    for (const code of ['COMMISSION', 'CREDIT', 'CLEARING', 'utmCode', /Nov/])
      expect(screen.queryByText(code)).not.toBeInTheDocument();
  });

  it('a pending sale has no postings yet; an admin gets the link to its transactions', async () => {
    login(UserType.ADMIN);
    salesServer();
    renderSales(`/sale/${PENDING._id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sale UTMPENDING' })).toBeInTheDocument();
    expect(
      await screen.findByText(
        'No postings yet: the commissions are credited when the partner confirms the account.',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Show in Transactions' })).toHaveAttribute(
      'href',
      `/transaction/list?filter=${encodeURIComponent(JSON.stringify({ boughtProductId: PENDING._id }))}`,
    );
  });

  it('an unknown sale shows the error, not an empty page', async () => {
    login(UserType.ADMIN);
    salesServer();
    renderSales(`/sale/${IDS.admin}`);
    expect(await screen.findByText('Could not load the sale.')).toBeInTheDocument();
    expect(await screen.findByText('Error: Sale not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sales' })).toHaveAttribute('href', '/sale/list');
  });

  it('a PENDING sale reopens its account opening, from its page and from its row; a refusal shows its message', async () => {
    login(UserType.RETAILER);
    const URL = 'http://127.0.0.1:3000/sandbox/open?utmCode=UTMPENDING';
    let calls = 0;
    const api = salesServer(() =>
      ++calls === 2
        ? jsonResponse(409, { message: 'The sale is no longer pending' })
        : jsonResponse(200, { result: { url: URL } }),
    );
    const tabs: { closed: boolean; opener: unknown; location: { href: string }; close: () => void }[] = [];
    vi.spyOn(window, 'open').mockImplementation(() => {
      const tab = { closed: false, opener: {} as unknown, location: { href: 'about:blank' }, close: vi.fn() };
      tabs.push(tab);
      return tab as unknown as Window;
    });
    const user = userEvent.setup();
    renderSales();
    // Only the PENDING row offers it.
    await user.click(await screen.findByRole('button', { name: 'Reopen the account opening of UTMPENDING' }));
    expect(
      screen.queryByRole('button', { name: 'Reopen the account opening of UTM12345' }),
    ).not.toBeInTheDocument();
    await waitFor(() => expect(tabs[0]?.location.href).toBe(URL));
    expect(tabs[0].opener).toBeNull();

    await user.click(screen.getByRole('link', { name: 'Open the sale UTMPENDING' }));
    const reopen = await screen.findByRole('button', { name: 'Reopen account opening' });
    await user.click(reopen);
    expect(await screen.findByText('Error: The sale is no longer pending')).toBeInTheDocument();
    expect(tabs[1].close).toHaveBeenCalled();
    expect(tabs[1].location.href).toBe('about:blank');
    expect(api.requests.filter((r) => r.path.startsWith('bought_products/opening/'))).toHaveLength(2);
  });

  it('a confirmed sale offers no reopening', async () => {
    login(UserType.RETAILER);
    salesServer();
    renderSales(`/sale/${IDS.sale}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sale UTM12345' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reopen account opening' })).not.toBeInTheDocument();
  });
});
