import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { TDS_MSG, type TdsDeposit, type TdsFetchResult } from '../../src/shared/schemas/tds';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { indiaDay, periodOfDay } from '../../src/web/resources/tds/period';
import { TdsPage } from '../../src/web/resources/tds/TdsPage';
import { atWidth, jsonResponse, labelledField, renderInAdmin, savedFiles, wireUser } from './helpers';

const RITA = '99999999-9999-4999-8999-999999999999';

const login = (type: UserType = UserType.ADMIN) => {
  const user = wireUser({ type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const quarterReport = (fy: string, quarter: string, empty: boolean): TdsFetchResult => ({
  fy,
  quarter: quarter as TdsFetchResult['quarter'],
  from: '2026-10-01',
  to: '2026-12-31',
  section: '194H',
  deductees: empty
    ? []
    : [
        {
          userId: RITA,
          panId: 'ABCDE1234F',
          name: 'rita retailer',
          credited: 25_000,
          tds: 500,
          rate: 2,
          creditedOn: '2026-11-20',
          deductedOn: '2026-11-20',
        },
        {
          userId: '88888888-8888-4888-8888-888888888888',
          panId: null,
          name: 'dev distributor',
          credited: 1_000,
          tds: 200,
          rate: 20,
          creditedOn: '2026-11-21',
          deductedOn: null,
        },
      ],
  totals: { credited: empty ? 0 : 26_000, tds: empty ? 0 : 700 },
});

/** The server as the panel sees it: deductees in this quarter only; deposits recorded as posted. */
const stubServer = ({
  failDeductees = false,
  deductees,
}: {
  failDeductees?: boolean;
  deductees?: TdsFetchResult['deductees'];
} = {}) => {
  const now = periodOfDay(indiaDay());
  const deposits: TdsDeposit[] = [];
  let payable = 700;
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://x');
    const path = url.pathname.replace('/api/v1/', '');
    const fy = url.searchParams.get('fy') ?? '';
    const quarter = url.searchParams.get('quarter') ?? '';
    const current = fy === now.fy && quarter === now.quarter;
    if (path === 'tds/fetch' && url.searchParams.get('format') === 'csv')
      return new Response('Deductee PAN,Deductee name\r\n', { headers: { 'Content-Type': 'text/csv' } });
    if (path === 'tds/fetch')
      return failDeductees
        ? jsonResponse(500, { message: 'Something went wrong' })
        : jsonResponse(200, {
            result: {
              ...quarterReport(fy, quarter, !current),
              ...(deductees && current ? { deductees } : {}),
            },
          });
    if (path === 'tds/certificate')
      return new Response(new Uint8Array([37, 80, 68, 70]), {
        headers: { 'Content-Type': 'application/pdf' },
      });
    if (path === 'tds/deposits')
      return jsonResponse(200, {
        result: {
          fy,
          quarter,
          from: '2026-10-01',
          to: '2026-12-31',
          deposits: current ? deposits : [],
          total: current ? deposits.reduce((sum, d) => sum + d.amount, 0) : 0,
          tdsPayable: payable,
        },
      });
    if (path === 'tds/deposit' && init.method === 'POST') {
      const body = JSON.parse(String(init.body));
      deposits.push({ _id: `d-${deposits.length}`, ...body, amount: Number(body.amount), createdAt: '' });
      payable -= Number(body.amount);
      return jsonResponse(200, { result: {}, message: TDS_MSG.depositRecorded });
    }
    return jsonResponse(404, { message: `not stubbed: ${path}` });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
};

const calls = (fetch: ReturnType<typeof stubServer>, path: string) =>
  fetch.mock.calls
    .map(([url, init]) => ({ url: new URL(String(url), 'http://x'), init }))
    .filter(({ url }) => url.pathname === `/api/v1/${path}`);

const renderTds = (locale?: 'en' | 'hi') =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/tds" element={<TdsPage />} />
      </Routes>,
      { path: '/tds', dataProvider: createDataProvider(), locale },
    ),
  );

describe('TDS', () => {
  let saved: string[];
  beforeEach(() => {
    saved = savedFiles();
  });

  it("shows this quarter's deductees with PAN, credited, tax, rate and totals; another quarter is asked for", async () => {
    login();
    const fetch = stubServer();
    const user = userEvent.setup();
    renderTds();
    const now = periodOfDay(indiaDay());
    const table = await screen.findByRole('table', { name: 'Deductees' });
    const rita = within(table).getByText('Rita Retailer').closest('tr')!;
    for (const text of ['ABCDE1234F', '₹25,000.00', '₹500.00', '2%'])
      expect(within(rita).getByText(text)).toBeInTheDocument();
    // The quarter and the last credit and deduction in the seed's medium date (issue 53).
    expect(screen.getByText('Oct 1, 2026 to Dec 31, 2026, section 194H')).toBeInTheDocument();
    expect(within(rita).getAllByText('Nov 20, 2026')).toHaveLength(2);
    const dev = within(table).getByText('Dev Distributor').closest('tr')!;
    for (const text of ['Not given', '₹200.00', '20%'])
      expect(within(dev).getByText(text)).toBeInTheDocument();
    expect(within(table).getByText('₹26,000.00')).toBeInTheDocument();
    expect(calls(fetch, 'tds/fetch')[0].url.searchParams.toString()).toBe(
      new URLSearchParams({ fy: now.fy, quarter: now.quarter }).toString(),
    );

    const other = now.quarter === 'Q1' ? 'Q2' : 'Q1';
    await user.click(screen.getByRole('combobox', { name: 'Quarter' }));
    await user.click(await screen.findByRole('option', { name: new RegExp(`^${other} `) }));
    expect(
      await screen.findByText('No commission was credited or taxed in this quarter.'),
    ).toBeInTheDocument();
    expect(calls(fetch, 'tds/fetch').at(-1)?.url.searchParams.get('quarter')).toBe(other);
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
  });

  // Issue 51, finding 7: a deductee's tax withheld at 20% without a PAN and at 2% under one is two rows, each with its
  // PAN and rate; commission no tax was withheld on yet is a row without a rate.
  it('shows a row for each rate and PAN a deductee’s tax was withheld at', async () => {
    login();
    const rita = (panId: string | null, rate: number | null, credited: number, tds: number) => ({
      userId: RITA,
      name: 'rita retailer',
      panId,
      credited,
      tds,
      rate,
      creditedOn: '2026-11-20',
      deductedOn: rate === null ? null : '2026-11-20',
    });
    stubServer({
      deductees: [rita(null, 20, 400, 80), rita('ABCDE1234F', 2, 100, 2), rita('ABCDE1234F', null, 50, 0)],
    });
    renderTds();
    const table = await screen.findByRole('table', { name: 'Deductees' });
    const rows = within(table)
      .getAllByText('Rita Retailer')
      .map((cell) =>
        within(cell.closest('tr')!)
          .getAllByRole('cell')
          .slice(1, 5)
          .map((c) => c.textContent),
      );
    expect(rows).toEqual([
      ['Not given', '₹400.00', '₹80.00', '20%'],
      ['ABCDE1234F', '₹100.00', '₹2.00', '2%'],
      ['ABCDE1234F', '₹50.00', '₹0.00', 'No tax yet'],
    ]);
  });

  // Issue 53: at 360 px each deductee is a card, its amounts and certificate on screen; the totals close the list.
  it('at 360 px shows each deductee as a card with its amounts and certificate, then the totals', async () => {
    atWidth(360);
    login();
    stubServer();
    renderTds();
    const cards = await screen.findByRole('list', { name: 'Deductees' });
    expect(screen.queryByRole('table', { name: 'Deductees' })).not.toBeInTheDocument();
    const pairs = (card: HTMLElement) =>
      Object.fromEntries(
        [...card.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
      );
    const [rita, dev, totals] = within(cards).getAllByRole('listitem');
    expect(pairs(rita)).toMatchObject({
      Name: 'Rita Retailer',
      PAN: 'ABCDE1234F',
      'Amount credited': '₹25,000.00',
      TDS: '₹500.00',
      Rate: '2%',
    });
    expect(
      within(rita).getByRole('button', { name: 'Download the certificate of Rita Retailer (PDF)' }),
    ).toBeInTheDocument();
    expect(pairs(dev)).toMatchObject({ Name: 'Dev Distributor', PAN: 'Not given', TDS: '₹200.00' });
    expect(pairs(totals)).toEqual({ 'Total: Amount credited': '₹26,000.00', 'Total: TDS': '₹700.00' });
  });

  it('says the deductees could not be loaded, with Retry, rather than that there are none', async () => {
    login();
    stubServer({ failDeductees: true });
    renderTds();
    expect(await screen.findByText('Could not load the deductees.')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Retry' }).length).toBeGreaterThan(0);
    expect(
      screen.queryByText('No commission was credited or taxed in this quarter.'),
    ).not.toBeInTheDocument();
  });

  it('downloads the CSV and a deductee’s certificate as a PDF', async () => {
    login();
    const fetch = stubServer();
    const user = userEvent.setup();
    renderTds();
    const now = periodOfDay(indiaDay());
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalledTimes(1));
    expect(calls(fetch, 'tds/fetch').at(-1)?.url.searchParams.get('format')).toBe('csv');

    await user.click(screen.getByRole('button', { name: 'Download the certificate of Rita Retailer (PDF)' }));
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalledTimes(2));
    expect(saved).toEqual([
      `tds-${now.fy}-${now.quarter}.csv`,
      `tds-certificate-${now.fy}-${now.quarter}-${RITA}.pdf`,
    ]);
    const certificate = calls(fetch, 'tds/certificate')[0].url.searchParams;
    expect(Object.fromEntries(certificate)).toEqual({
      userId: RITA,
      fy: now.fy,
      quarter: now.quarter,
      format: 'pdf',
      lang: 'en',
    });
  });

  it('downloads a deductee’s certificate in Hindi when the panel is in Hindi', async () => {
    login();
    const fetch = stubServer();
    const user = userEvent.setup();
    renderTds('hi');
    const download = await screen.findByRole('button', {
      name: 'Rita Retailer का प्रमाणपत्र डाउनलोड करें (PDF)',
    });
    // The last credit and deduction in Hindi's medium date, with its month's Hindi name (issue 53).
    expect(within(download.closest('tr')!).getAllByText('20 नव॰ 2026')).toHaveLength(2);
    await user.click(download);
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalledTimes(1));
    expect(calls(fetch, 'tds/certificate')[0].url.searchParams.get('lang')).toBe('hi');
  });

  it("records a deposit with the server's rules and messages, then lists it for the quarter", async () => {
    login();
    const fetch = stubServer();
    const user = userEvent.setup();
    renderTds();
    const deposits = await screen.findByRole('region', { name: 'Deposits' });
    expect(
      await within(deposits).findByText('No deposit is recorded with a date in this quarter.'),
    ).toBeInTheDocument();
    expect(within(deposits).getByText('TDS payable now: ₹700.00.')).toBeInTheDocument();
    await user.click(within(deposits).getByRole('button', { name: 'Record Deposit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record TDS Deposit' });
    // The first field has the focus: a keyboard user starts typing.
    expect(labelledField(dialog, 'BSR code')).toHaveFocus();
    await user.keyboard('12345');
    await user.type(labelledField(dialog, 'Challan serial number'), '123456');
    await user.type(labelledField(dialog, 'Amount (₹)'), '250');
    await user.click(within(dialog).getByRole('button', { name: 'Record Deposit' }));
    expect(await within(dialog).findByText(TDS_MSG.bsrCode)).toBeInTheDocument();
    expect(within(dialog).getByText(TDS_MSG.challanSerial)).toBeInTheDocument();
    expect(calls(fetch, 'tds/deposit')).toEqual([]);

    await user.type(labelledField(dialog, 'BSR code'), '67');
    await user.clear(labelledField(dialog, 'Challan serial number'));
    await user.type(labelledField(dialog, 'Challan serial number'), '42');
    await user.click(within(dialog).getByRole('button', { name: 'Record Deposit' }));
    expect(await screen.findByText(TDS_MSG.depositRecorded)).toBeInTheDocument();
    const [sent] = calls(fetch, 'tds/deposit');
    expect(JSON.parse(String(sent.init?.body))).toEqual({
      bsrCode: '1234567',
      challanSerial: '42',
      date: indiaDay(),
      amount: '250',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const row = (await within(deposits).findByText('1234567')).closest('tr')!;
    expect(within(row).getByText('₹250.00')).toBeInTheDocument();
    expect(within(deposits).getByText('TDS payable now: ₹450.00.')).toBeInTheDocument();
  });

  it('shows an employee the quarter without Record Deposit', async () => {
    login(UserType.EMPLOYEE);
    stubServer();
    renderTds();
    expect(await screen.findByRole('table', { name: 'Deductees' })).toBeInTheDocument();
    expect(await screen.findByText('TDS payable now: ₹700.00.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Record Deposit' })).not.toBeInTheDocument();
  });
});
