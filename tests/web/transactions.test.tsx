import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useParams } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { MSG } from '../../src/shared/messages';
import { SALES_MSG } from '../../src/shared/schemas/sales';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { TransactionList } from '../../src/web/resources/transactions/TransactionList';
import { cellTexts, jsonResponse, labelledField, renderInAdmin, wireUser } from './helpers';
import { IDS, SALE_POSTINGS, wirePosting, wireSale } from './salesFixtures';
import { answer, type Request, stubServer } from './salesServer';

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

/** The sale's postings as the list sends them (with the sale's reference), and a payout. */
const PAYOUT = wirePosting(9, 'master', 40, {
  balanceType: 'AVAILABLE',
  kind: 'PAYOUT',
  transactionType: 'DEBIT',
  status: 'PAID',
  boughtProductId: null,
  tier: null,
  reference: 'NEFT-0042',
  saleReference: null,
});
const LISTED = [...SALE_POSTINGS.map((p) => ({ ...p, saleReference: 'UTM12345' })), PAYOUT];

/** A posting's time as the list writes it: the date and the time of day. */
const AT = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));

const ledgerServer = (
  payout = (_: Request) => jsonResponse(200, { result: SALE_POSTINGS[3], message: SALES_MSG.payoutRecorded }),
) =>
  stubServer(
    (request) => {
      if (request.path !== 'transactions/fetch') return undefined;
      return jsonResponse(200, {
        result: { transactions: LISTED, totalCounts: 57, totals: { moneyIn: 123456.78, moneyOut: 2.5 } },
      });
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
    answer('POST', 'wallet/settle', (request) => {
      const one = !!(request.body as { userId?: string }).userId;
      return jsonResponse(200, {
        result: { settled: one ? 1 : 5, amount: one ? 100 : 500, users: one ? 1 : 5 },
        message: SALES_MSG.settled(one ? 1 : 5),
      });
    }),
    answer('POST', 'wallet/payout', payout),
  );

/** Where the sale link leads (the sale's page, here only its id). */
const SaleShown = () => <p>sale page {useParams().id}</p>;

const renderTransactions = (path = '/transaction/list') =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/transaction/list" element={<TransactionList />} />
        <Route path="/sale/:id" element={<SaleShown />} />
      </Routes>,
      { path, dataProvider: createDataProvider() },
    ),
  );

const fetches = (api: ReturnType<typeof stubServer>) =>
  api.requests.filter((r) => r.path === 'transactions/fetch').map((r) => Object.fromEntries(r.query));

const pick = async (user: ReturnType<typeof userEvent.setup>, combobox: HTMLElement, option: string) => {
  await user.click(combobox);
  await user.click(await screen.findByRole('option', { name: option }));
};

describe('Transactions (seed section 2)', () => {
  it('shows the seed columns with rupees, 10 a page from transactions/fetch', async () => {
    login(UserType.ADMIN);
    const api = ledgerServer();
    renderTransactions();
    const row = (await screen.findByText('Ganesh Mobile Store')).closest('tr') as HTMLElement;
    expect(screen.getByRole('heading', { level: 1, name: 'Transactions' })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Name',
      'Mobile',
      'Email',
      'Kind',
      'Reference',
      'Amount',
      'Transaction Type',
      'Balance',
      'Clearing Balance',
      'Status',
      'Date and Time',
    ]);
    expect(cellTexts(row)).toEqual([
      'Ganesh Mobile Store',
      '9300000001',
      '9300000001@demo.tierdesk.in',
      'COMMISSION',
      'UTM12345',
      '₹100.00',
      'CREDIT',
      '₹0.00',
      '₹100.00',
      'CLEARING',
      AT(SALE_POSTINGS[3].createdAt),
    ]);
    expect(screen.getAllByText('CREDIT')).toHaveLength(5);
    expect(fetches(api)[0]).toEqual({ page: '1', limit: '10' });
    const nav = screen.getByRole('navigation', { name: 'Pagination' });
    // 57 transactions make 6 pages; the last is reached by its button.
    expect(within(nav).getByRole('button', { name: 'Go to last page' })).toBeEnabled();
  });

  it("the user typeahead needs a user type first: the seed's message, and no user search", async () => {
    login(UserType.ADMIN);
    const api = ledgerServer();
    const user = userEvent.setup();
    renderTransactions();
    await screen.findByText('Ganesh Mobile Store');
    const userInput = screen.getByRole('combobox', { name: 'User' });
    await user.click(userInput);
    await user.type(userInput, 'gan');
    expect((await screen.findAllByText(SALES_MSG.selectUserTypeFirst)).length).toBeGreaterThan(0);
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    expect(api.requests.filter((r) => r.path === 'account/fetch')).toEqual([]);
  });

  it('sends userType, the user of that type, transactionType and the bought product to transactions/fetch', async () => {
    login(UserType.ADMIN);
    const api = ledgerServer();
    const user = userEvent.setup();
    renderTransactions();
    await screen.findByText('Ganesh Mobile Store');

    await pick(user, screen.getByRole('combobox', { name: 'User Type' }), 'Retailer');
    await waitFor(() => expect(fetches(api).at(-1)).toMatchObject({ userType: '4' }));
    await pick(user, screen.getByRole('combobox', { name: 'User' }), 'Ganesh Mobile Store');
    await waitFor(() => expect(fetches(api).at(-1)).toMatchObject({ userType: '4', userId: IDS.retailer }));
    expect(api.requests.find((r) => r.path === 'account/fetch')?.query.get('type')).toBe('4');

    await pick(user, screen.getByRole('combobox', { name: 'Transaction Type' }), 'CREDIT');
    // As each step above, wait for the list to apply the pick before the next filter: once, on a loaded CI host,
    // the search typed right after this pick never went out (not reproduced since, under six busy loops).
    await waitFor(() => expect(fetches(api).at(-1)).toMatchObject({ transactionType: 'CREDIT' }));
    const sale = screen.getByRole('combobox', { name: 'Bought Product' });
    await user.click(sale);
    await user.type(sale, 'UTM1');
    expect(sale).toHaveValue('UTM1');
    // The typed text searches by utmCode or customer name (searchText), 200 ms after typing stops.
    await waitFor(() =>
      expect(
        api.requests.some((r) => r.path === 'bought_products/fetch' && r.query.get('searchText') === 'UTM1'),
      ).toBe(true),
    );
    await user.click(await screen.findByRole('option', { name: 'UTM12345 · Ramesh Kumar · Saving Account' }));
    await waitFor(() =>
      expect(fetches(api).at(-1)).toEqual({
        page: '1',
        limit: '10',
        userType: '4',
        userId: IDS.retailer,
        transactionType: 'CREDIT',
        boughtProductId: IDS.sale,
      }),
    );

    // Another user type drops the user chosen for the first one.
    await pick(user, screen.getByRole('combobox', { name: 'User Type' }), 'Customer');
    await waitFor(() => expect(fetches(api).at(-1)).toMatchObject({ userType: '1' }));
    expect(fetches(api).at(-1)?.userId).toBeUndefined();
  });

  it('shows at most 5 page links, moving with the current page (seed section 9)', async () => {
    login(UserType.ADMIN);
    ledgerServer();
    const user = userEvent.setup();
    // 57 transactions: 6 pages of 10.
    renderTransactions();
    const nav = await screen.findByRole('navigation', { name: 'Pagination' });
    const pages = () =>
      within(nav)
        .queryAllByRole('button', { name: /^(Go to page|Page) \d+$/ })
        .map((b) => b.textContent);
    expect(pages()).toEqual(['1', '2', '3', '4', '5']);
    await user.click(within(nav).getByRole('button', { name: 'Go to last page' }));
    await waitFor(() => expect(pages()).toEqual(['2', '3', '4', '5', '6']));
    await user.click(within(nav).getByRole('button', { name: 'Go to page 4' }));
    await waitFor(() => expect(pages()).toEqual(['2', '3', '4', '5', '6']));
  });

  it('exports the same columns as CSV', async () => {
    login(UserType.ADMIN);
    ledgerServer();
    const saved: Blob[] = [];
    Object.defineProperty(window.navigator, 'msSaveOrOpenBlob', {
      value: (blob: Blob) => saved.push(blob),
      configurable: true,
    });
    try {
      const user = userEvent.setup();
      renderTransactions();
      await screen.findByText('Ganesh Mobile Store');
      await user.click(screen.getByRole('button', { name: 'Export' }));
      await waitFor(() => expect(saved).toHaveLength(1));
      const text = await new Promise<string>((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.readAsText(saved[0]);
      });
      const lines = text.split('\n');
      expect(lines[0]).toBe(
        'Name,Mobile,Email,Kind,Reference,Amount,Transaction Type,Balance,Clearing Balance,Status,Date and Time',
      );
      expect(lines).toContain(
        `Ganesh Mobile Store,9300000001,9300000001@demo.tierdesk.in,COMMISSION,UTM12345,100,CREDIT,0,100,CLEARING,"${AT(SALE_POSTINGS[3].createdAt)}"`,
      );
      // A header and the six postings, the payout's reference written as text.
      expect(lines).toHaveLength(7);
      expect(lines.at(-1)).toContain(',PAYOUT,NEFT-0042,40,DEBIT,');
    } finally {
      Reflect.deleteProperty(window.navigator, 'msSaveOrOpenBlob');
    }
  });
});

describe('Settle and Record Payout (ADMIN)', () => {
  it('Settle asks first, then settles the filtered user (or everyone), toasts the message and refreshes', async () => {
    login(UserType.ADMIN);
    const api = ledgerServer();
    const user = userEvent.setup();
    renderTransactions();
    await screen.findByText('Ganesh Mobile Store');

    await user.click(screen.getByRole('button', { name: 'Settle' }));
    let dialog = await screen.findByRole('dialog', { name: 'Settle Commissions' });
    expect(dialog).toHaveTextContent(
      'No user is selected: move every clearing balance to the available balance?',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.posts()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Settle' }));
    dialog = await screen.findByRole('dialog', { name: 'Settle Commissions' });
    const before = fetches(api).length;
    await user.click(within(dialog).getByRole('button', { name: 'Settle' }));
    expect(await screen.findByText('5 commissions settled')).toBeInTheDocument();
    expect(api.posts()).toEqual([['POST wallet/settle', { all: true }]]);
    await waitFor(() => expect(fetches(api).length).toBeGreaterThan(before));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await pick(user, screen.getByRole('combobox', { name: 'User Type' }), 'Retailer');
    await pick(user, screen.getByRole('combobox', { name: 'User' }), 'Ganesh Mobile Store');
    await waitFor(() => expect(fetches(api).at(-1)).toMatchObject({ userId: IDS.retailer }));
    await user.click(screen.getByRole('button', { name: 'Settle' }));
    dialog = await screen.findByRole('dialog', { name: 'Settle Commissions' });
    expect(dialog).toHaveTextContent(
      'Move the clearing balance of Ganesh Mobile Store to its available balance?',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Settle' }));
    expect(await screen.findByText('1 commission settled')).toBeInTheDocument();
    expect(api.posts()[1]).toEqual(['POST wallet/settle', { userId: IDS.retailer }]);
  });

  it('Record Payout: user type, user, rupees and a reference; the server message; refusals keep it open', async () => {
    login(UserType.ADMIN);
    let refuse = true;
    const api = ledgerServer(() =>
      refuse
        ? jsonResponse(400, { message: SALES_MSG.payoutExceedsBalance('₹320.50') })
        : jsonResponse(200, { result: SALE_POSTINGS[3], message: SALES_MSG.payoutRecorded }),
    );
    const user = userEvent.setup();
    renderTransactions();
    await screen.findByText('Ganesh Mobile Store');
    await user.click(screen.getByRole('button', { name: 'Record Payout' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record Payout' });

    await user.click(within(dialog).getByRole('button', { name: 'Record Payout' }));
    expect(await screen.findByText(MSG.validationFailed)).toBeInTheDocument();
    expect(within(dialog).getByText(SALES_MSG.referenceRequired)).toBeInTheDocument();
    expect(api.posts()).toEqual([]);

    await user.click(within(dialog).getByRole('combobox', { name: 'User' }));
    expect((await screen.findAllByText(SALES_MSG.selectUserTypeFirst)).length).toBeGreaterThan(0);
    await pick(user, within(dialog).getByRole('combobox', { name: 'User Type' }), 'Retailer');
    await pick(user, within(dialog).getByRole('combobox', { name: 'User' }), 'Ganesh Mobile Store');
    expect(await within(dialog).findByText('Available balance: ₹320.50')).toBeInTheDocument();
    await user.type(labelledField(dialog, 'Amount (₹)'), '400.5');
    await user.type(labelledField(dialog, 'Reference'), ' NEFT-1 ');
    await user.click(within(dialog).getByRole('button', { name: 'Record Payout' }));
    expect(
      await screen.findByText('Error: Payout exceeds the available balance of ₹320.50'),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Record Payout' })).toBeInTheDocument();

    refuse = false;
    await user.clear(labelledField(dialog, 'Amount (₹)'));
    await user.type(labelledField(dialog, 'Amount (₹)'), '80.5');
    await user.click(within(dialog).getByRole('button', { name: 'Record Payout' }));
    expect(await screen.findByText(SALES_MSG.payoutRecorded)).toBeInTheDocument();
    expect(api.posts()).toEqual([
      ['POST wallet/payout', { userId: IDS.retailer, amount: '400.5', reference: 'NEFT-1' }],
      ['POST wallet/payout', { userId: IDS.retailer, amount: '80.5', reference: 'NEFT-1' }],
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('Record Payout starts on the user the list is filtered to', async () => {
    login(UserType.ADMIN);
    const api = ledgerServer();
    const user = userEvent.setup();
    renderTransactions();
    await screen.findByText('Ganesh Mobile Store');
    await pick(user, screen.getByRole('combobox', { name: 'User Type' }), 'Retailer');
    await pick(user, screen.getByRole('combobox', { name: 'User' }), 'Ganesh Mobile Store');
    await waitFor(() => expect(fetches(api).at(-1)).toMatchObject({ userId: IDS.retailer }));

    await user.click(screen.getByRole('button', { name: 'Record Payout' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record Payout' });
    expect(within(dialog).getByRole('combobox', { name: 'User Type' })).toHaveTextContent('Retailer');
    expect(await within(dialog).findByText('Available balance: ₹320.50')).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'User' })).toHaveValue('Ganesh Mobile Store');
    await user.type(labelledField(dialog, 'Amount (₹)'), '20');
    await user.type(labelledField(dialog, 'Reference'), 'NEFT-2');
    await user.click(within(dialog).getByRole('button', { name: 'Record Payout' }));
    expect(await screen.findByText(SALES_MSG.payoutRecorded)).toBeInTheDocument();
    expect(api.posts()).toEqual([
      ['POST wallet/payout', { userId: IDS.retailer, amount: '20', reference: 'NEFT-2' }],
    ]);
  });
});

describe('The books on screen (issue 43)', () => {
  it("shows each posting's kind, its sale as a link to the sale's page, a payout's reference, the date and time", async () => {
    login(UserType.ADMIN);
    ledgerServer();
    const user = userEvent.setup();
    renderTransactions();
    const payout = (await screen.findByText('NEFT-0042')).closest('tr') as HTMLElement;
    expect(within(payout).getByText('PAYOUT')).toBeInTheDocument();
    expect(within(payout).queryByRole('link')).not.toBeInTheDocument();
    expect(within(payout).getByText(AT(PAYOUT.createdAt))).toBeInTheDocument();
    const links = screen.getAllByRole('link', { name: 'Open sale UTM12345' });
    expect(links).toHaveLength(SALE_POSTINGS.length);
    expect(links[0]).toHaveTextContent('UTM12345');
    await user.click(links[0]);
    expect(await screen.findByText(`sale page ${IDS.sale}`)).toBeInTheDocument();
  });

  it('shows the money in and out of the whole filter, each figure by its label, and sends a range of days', async () => {
    login(UserType.ADMIN);
    const api = ledgerServer();
    const user = userEvent.setup();
    renderTransactions();
    const totals = await screen.findByRole('region', { name: 'Totals for the current filter' });
    await waitFor(() => expect(within(totals).getByText('₹1,23,456.78')).toBeInTheDocument());
    const figureOf = (label: string) => within(totals).getByText(label).nextElementSibling?.textContent;
    expect(figureOf('Money in')).toBe('₹1,23,456.78');
    expect(figureOf('Money out')).toBe('₹2.50');
    expect(
      within(totals).getByText(
        'Money in: commissions, credit adjustments and TDS given back. Money out: payouts, reversals, TDS and debit adjustments. A settlement (clearing to available) counts in neither.',
      ),
    ).toBeInTheDocument();
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await waitFor(() => expect(fetches(api).at(-1)).toMatchObject({ from: '2026-11-01' }));
    await user.type(screen.getByLabelText('To'), '2026-11-30');
    await waitFor(() => expect(fetches(api).at(-1)).toMatchObject({ from: '2026-11-01', to: '2026-11-30' }));
  });

  it('marks From later than To on its field and sends neither', async () => {
    login(UserType.ADMIN);
    const api = ledgerServer();
    const user = userEvent.setup();
    renderTransactions();
    await screen.findByText('NEFT-0042');
    await user.type(screen.getByLabelText('To'), '2026-11-01');
    await waitFor(() => expect(fetches(api).at(-1)).toMatchObject({ to: '2026-11-01' }));
    await user.type(screen.getByLabelText('From'), '2026-11-05');
    // Both fields say so (each checks the order when the other changes).
    expect(await screen.findAllByText('from must not be later than to')).toHaveLength(2);
    expect(fetches(api).some((q) => q.from === '2026-11-05')).toBe(false);
  });
});
