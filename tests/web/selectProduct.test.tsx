import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuthProvider } from 'react-admin';
import { Route, Routes, useLocation } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { SALES_MSG } from '../../src/shared/schemas/sales';
import { Login } from '../../src/web/pages/Login';
import { authProvider } from '../../src/web/providers/authProvider';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { CustomerList } from '../../src/web/resources/customers/CustomerList';
import { jsonResponse, renderInAdmin, wireUser } from './helpers';
import { IDS, PRODUCTS, PROVIDERS, wireSale } from './salesFixtures';
import { answer, listOf, stubServer } from './salesServer';

const login = (type: UserType, id: string) => {
  const user = wireUser({ _id: id, type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const CUSTOMER = wireUser({
  _id: IDS.customer,
  name: 'ramesh kumar',
  type: UserType.CUSTOMER,
  customer: { aadharId: 'XXXXXXXX1234', panId: 'ABCDE1001F', retailerId: IDS.retailer },
  retailer: [{ _id: IDS.retailer, name: 'ganesh mobile store' }],
});

const URL_OF = (utm: string) => `http://127.0.0.1:3000/sandbox/open?utmCode=${utm}`;

/**
 * Customers, the catalogue, the customer's PENDING sales (none by default), the partner (by default answering an
 * opening) and bought_products/create.
 */
const server = (
  partner = (utm: string): Response | Promise<Response> =>
    jsonResponse(200, { result: { result: { data: URL_OF(utm) }, merchantCode: 'M-42' } }),
  created = (): Response =>
    jsonResponse(200, {
      result: wireSale({ status: 'PENDING', confirmedAt: null }),
      message: SALES_MSG.saleRecorded,
    }),
  pending: unknown[] = [],
  ...more: Parameters<typeof stubServer>
) =>
  stubServer(
    ...more,
    listOf('account/fetch', 'users', (q) => (q.get('type') === '1' ? [CUSTOMER] : [])),
    listOf('bought_products/fetch', 'boughtProducts', () => pending),
    listOf('providers/fetch', 'providers', () => PROVIDERS),
    listOf('products/fetch', 'products', (q) =>
      PRODUCTS.filter((p) => !q.get('providerId') || p.providerId._id === q.get('providerId')),
    ),
    answer('POST', 'payusprint/saving_account', () => partner('UTMSAVING1')),
    answer('POST', 'payusprint/current_account', () => partner('UTMCURRENT1')),
    answer('POST', 'bought_products/create', created),
  );

/** A stand-in for the tab window.open returns: a blank page whose location the panel sets. */
const fakeTab = () => {
  const tab = { closed: false, opener: {} as unknown, location: { href: 'about:blank' }, close: vi.fn() };
  tab.close.mockImplementation(() => {
    tab.closed = true;
  });
  return tab;
};

/** Where a link led: the path and its query. */
const Where = () => {
  const location = useLocation();
  return <p>{`AT ${location.pathname}${decodeURIComponent(location.search)}`}</p>;
};

const renderCustomers = (auth: AuthProvider = authProvider) =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/customer/list" element={<CustomerList />} />
        <Route path="/auth" element={<Login />} />
        <Route path="/sale/list" element={<Where />} />
      </Routes>,
      { path: '/customer/list', dataProvider: createDataProvider(), authProvider: auth },
    ),
  );

const openModal = async (user: ReturnType<typeof userEvent.setup>) => {
  // The first render of a file pays for the imports: on a loaded machine the list takes more than a second.
  await user.click(await screen.findByRole('button', { name: 'Select Product for Ramesh Kumar' }));
  return screen.findByRole('dialog', { name: 'Select Product' });
};

/** Signed in (a retailer unless told), the customers on screen and Select Product open on Ramesh Kumar. */
const openSelectProduct = async (type: UserType = UserType.RETAILER, id: string = IDS.retailer) => {
  login(type, id);
  const user = userEvent.setup();
  renderCustomers();
  return { user, dialog: await openModal(user) };
};

/** Each window.open gets a blank tab of its own, in `tabs`. */
const tabsOpened = () => {
  const tabs: ReturnType<typeof fakeTab>[] = [];
  vi.spyOn(window, 'open').mockImplementation(() => {
    tabs.push(fakeTab());
    return tabs.at(-1) as unknown as Window;
  });
  return tabs;
};

const choose = async (
  user: ReturnType<typeof userEvent.setup>,
  dialog: HTMLElement,
  label: string,
  option: string,
) => {
  await user.click(within(dialog).getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
  await waitFor(() => expect(within(dialog).getByRole('combobox', { name: label })).toHaveValue(option));
};

/** Chooses the provider and the product, then presses Proceed. */
const proceedWith = async (
  user: ReturnType<typeof userEvent.setup>,
  dialog: HTMLElement,
  provider: string,
  product: string,
) => {
  await choose(user, dialog, 'Provider', provider);
  await choose(user, dialog, 'Product', product);
  await user.click(within(dialog).getByRole('button', { name: 'Proceed' }));
};

describe('Select Product (seed sections 2, 4, 5)', () => {
  it("without both: the seed's messages, and nothing is sent or opened", async () => {
    const api = server();
    const open = vi.spyOn(window, 'open');
    const { user, dialog } = await openSelectProduct();
    expect(within(dialog).getByText('Customer: Ramesh Kumar')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Proceed' }));
    expect(await screen.findByText(SALES_MSG.selectBoth)).toBeInTheDocument();

    // The product lookup waits for a provider: it says so and searches nothing.
    // In the suggestion list and announced to screen readers.
    const noProvider = async () =>
      (await screen.findAllByText(SALES_MSG.noProvider)).map((el) => el.getAttribute('role'));
    await user.click(within(dialog).getByRole('combobox', { name: 'Product' }));
    expect(await noProvider()).toEqual(expect.arrayContaining(['status', 'presentation']));
    await user.type(within(dialog).getByRole('combobox', { name: 'Product' }), 'sav');
    expect(await noProvider()).toEqual(expect.arrayContaining(['status', 'presentation']));
    expect(screen.queryByRole('option')).not.toBeInTheDocument();

    // A provider alone is not enough either.
    await choose(user, dialog, 'Provider', 'PayU Sprint Bank');
    await user.click(within(dialog).getByRole('button', { name: 'Proceed' }));
    await waitFor(() => expect(screen.getAllByText(SALES_MSG.selectBoth).length).toBeGreaterThan(0));

    expect(open).not.toHaveBeenCalled();
    expect(api.posts()).toEqual([]);
    expect(api.requests.some((r) => r.path === 'products/fetch' && !r.query.get('providerId'))).toBe(false);
    expect(screen.getByRole('dialog', { name: 'Select Product' })).toBeInTheDocument();
  });

  it('a retailer sells a SAVING product: saving_account, then bought_products/create, then the tab opens the URL', async () => {
    const api = server();
    const tab = fakeTab();
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { user, dialog } = await openSelectProduct();
    await choose(user, dialog, 'Provider', 'PayU Sprint Bank');
    // Only the chosen provider's products are offered.
    await user.click(within(dialog).getByRole('combobox', { name: 'Product' }));
    expect(await screen.findByRole('option', { name: 'Saving Account' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Current Account' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Sole Proprietor Account' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Saving Account' }));
    await user.click(within(dialog).getByRole('button', { name: 'Proceed' }));

    expect(await screen.findByText(SALES_MSG.saleRecorded)).toBeInTheDocument();
    // The tab was opened blank within the click, then sent to the account-opening URL.
    expect(open).toHaveBeenCalledTimes(1);
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.location.href).toBe(URL_OF('UTMSAVING1'));
    expect(tab.opener).toBeNull();
    expect(tab.close).not.toHaveBeenCalled();
    expect(api.posts()).toEqual([
      [
        'POST payusprint/saving_account',
        { accountType: 'PAYUSPRINT-SAVING', productId: IDS.saving, customerId: IDS.customer },
      ],
      [
        'POST bought_products/create',
        {
          customerId: IDS.customer,
          retailerId: IDS.retailer,
          productId: IDS.saving,
          utmCode: 'UTMSAVING1',
          merchantCode: 'M-42',
        },
      ],
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('an admin sells a SOLE-PROPRIETOR product through current_account; a CURRENT one the same way', async () => {
    const api = server();
    const tab = fakeTab();
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { user, dialog: first } = await openSelectProduct(UserType.ADMIN, IDS.admin);
    let dialog = first;
    await proceedWith(user, dialog, 'NSDL Payments Bank', 'Sole Proprietor Account');
    await waitFor(() => expect(tab.location.href).toBe(URL_OF('UTMCURRENT1')));
    expect(api.posts()).toEqual([
      [
        'POST payusprint/current_account',
        { accountType: 'PAYUSPRINT-SOLE-PROPRIETOR', productId: IDS.sole, customerId: IDS.customer },
      ],
      [
        'POST bought_products/create',
        {
          customerId: IDS.customer,
          // Staff sell for the customer's own retailer.
          retailerId: IDS.retailer,
          productId: IDS.sole,
          utmCode: 'UTMCURRENT1',
          merchantCode: 'M-42',
        },
      ],
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    dialog = await openModal(user);
    await proceedWith(user, dialog, 'PayU Sprint Bank', 'Current Account');
    await waitFor(() => expect(api.posts()).toHaveLength(4));
    expect(api.posts()[2]).toEqual([
      'POST payusprint/current_account',
      { accountType: 'PAYUSPRINT-CURRENT', productId: IDS.current, customerId: IDS.customer },
    ]);
  });

  it('a partner failure shows the error toast, closes the blank tab and keeps the modal open', async () => {
    const api = server(() => jsonResponse(502, { message: SALES_MSG.partnerFailed(500) }, 'Bad Gateway'));
    const tab = fakeTab();
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { user, dialog } = await openSelectProduct();
    await proceedWith(user, dialog, 'PayU Sprint Bank', 'Saving Account');

    expect(await screen.findByText(`Error: ${SALES_MSG.partnerFailed(500)}`)).toBeInTheDocument();
    expect(screen.getByText('Error!!!')).toBeInTheDocument();
    expect(tab.close).toHaveBeenCalled();
    expect(api.posts().map(([call]) => call)).toEqual(['POST payusprint/saving_account']);
    expect(screen.getByRole('dialog', { name: 'Select Product' })).toBeInTheDocument();
    // Ready to try again.
    expect(within(dialog).getByRole('button', { name: 'Proceed' })).toBeEnabled();
  });

  it('when the browser refuses the tab, the recorded sale offers the URL as a link', async () => {
    server();
    vi.spyOn(window, 'open').mockReturnValue(null);
    const { user, dialog } = await openSelectProduct();
    await proceedWith(user, dialog, 'PayU Sprint Bank', 'Saving Account');
    const link = await within(dialog).findByRole('link', { name: 'Open the account-opening page' });
    expect(link).toHaveAttribute('href', URL_OF('UTMSAVING1'));
    expect(link).toHaveAttribute('target', '_blank');
    expect(within(dialog).queryByRole('button', { name: 'Proceed' })).not.toBeInTheDocument();
  });

  it('Cancel closes the modal without a call', async () => {
    const api = server();
    const { user, dialog } = await openSelectProduct(UserType.EMPLOYEE, IDS.admin);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.posts()).toEqual([]);
  });

  it('is gone for a role the role table does not let sell', async () => {
    login(UserType.RETAILER, IDS.retailer);
    server();
    const canAccess = vi.fn(async ({ resource }: { resource: string }) => resource !== 'sales');
    renderCustomers({ ...authProvider, canAccess });
    expect(await screen.findByText('Ramesh Kumar')).toBeInTheDocument();
    await waitFor(() =>
      expect(canAccess).toHaveBeenCalledWith(
        expect.objectContaining({ resource: 'sales', action: 'create' }),
      ),
    );
    await screen.findByRole('button', { name: 'Edit Ramesh Kumar' });
    expect(screen.queryByRole('button', { name: /Select Product/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Select Product' })).not.toBeInTheDocument();
  });

  it('Cancel while the partner is slow aborts its call, closes the modal and records nothing', async () => {
    let answerPartner: (response: Response) => void = () => undefined;
    const slow = new Promise<Response>((resolve) => {
      answerPartner = resolve;
    });
    const api = server(() => slow);
    const tab = fakeTab();
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { user, dialog } = await openSelectProduct();
    await proceedWith(user, dialog, 'PayU Sprint Bank', 'Saving Account');
    await waitFor(() => expect(api.requests.some((r) => r.path === 'payusprint/saving_account')).toBe(true));
    // In flight: Proceed cannot be pressed again.
    expect(within(dialog).getByRole('button', { name: 'Proceed' })).toBeDisabled();
    const partnerCall = api.requests.find((r) => r.path === 'payusprint/saving_account');

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(partnerCall?.signal?.aborted).toBe(true);
    expect(tab.close).toHaveBeenCalled();

    // The partner answers after all: nothing follows it.
    await act(async () => {
      answerPartner(
        jsonResponse(200, { result: { result: { data: URL_OF('LATE1') }, merchantCode: 'M-42' } }),
      );
      await slow;
    });
    expect(api.posts().map(([call]) => call)).toEqual(['POST payusprint/saving_account']);
    expect(screen.queryByText(SALES_MSG.saleRecorded)).not.toBeInTheDocument();
    expect(screen.queryByText('Error!!!')).not.toBeInTheDocument();
    expect(tab.location.href).toBe('about:blank');
  });

  it('three clicks on Proceed in one task make one partner call and one sale, with one Idempotency-Key', async () => {
    const api = server();
    const tab = fakeTab();
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { user, dialog } = await openSelectProduct();
    await choose(user, dialog, 'Provider', 'PayU Sprint Bank');
    await choose(user, dialog, 'Product', 'Saving Account');
    const proceed = within(dialog).getByRole('button', { name: 'Proceed' });
    act(() => {
      proceed.click();
      proceed.click();
      proceed.click();
    });
    expect(await screen.findByText(SALES_MSG.saleRecorded)).toBeInTheDocument();
    expect(open).toHaveBeenCalledTimes(1);
    expect(api.posts().map(([call]) => call)).toEqual([
      'POST payusprint/saving_account',
      'POST bought_products/create',
    ]);
    const create = api.requests.find((r) => r.path === 'bought_products/create');
    expect(create?.headers.get('Idempotency-Key')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    // Before the partner is called: the customer's PENDING sales of this product.
    const check = api.requests.find((r) => r.path === 'bought_products/fetch');
    expect(Object.fromEntries(check?.query ?? [])).toMatchObject({
      customerId: IDS.customer,
      productId: IDS.saving,
      status: 'PENDING',
    });
  });

  it('a retry of the same Proceed after a lost answer sends the same opening and the same Idempotency-Key', async () => {
    let creates = 0;
    const api = server(undefined, () =>
      ++creates === 1
        ? jsonResponse(503, { message: 'Something went wrong on our side. Please try again.' })
        : jsonResponse(200, {
            result: wireSale({ status: 'PENDING', confirmedAt: null }),
            message: SALES_MSG.saleRecorded,
          }),
    );
    // Each Proceed opens its own blank tab.
    const tabs = tabsOpened();
    const { user, dialog } = await openSelectProduct();
    await proceedWith(user, dialog, 'PayU Sprint Bank', 'Saving Account');
    expect(
      await screen.findByText('Error: Something went wrong on our side. Please try again.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Proceed' })).toBeEnabled());
    await user.click(within(dialog).getByRole('button', { name: 'Proceed' }));
    await waitFor(() => expect(tabs[1]?.location.href).toBe(URL_OF('UTMSAVING1')));
    expect(tabs[0].close).toHaveBeenCalled();

    const calls = api.requests.filter((r) => r.method === 'POST');
    expect(calls.map((r) => r.path)).toEqual([
      'payusprint/saving_account',
      'bought_products/create',
      'bought_products/create',
    ]);
    expect(calls[1].body).toEqual(calls[2].body);
    expect(calls[2].headers.get('Idempotency-Key')).toBe(calls[1].headers.get('Idempotency-Key'));
    expect(calls[1].headers.get('Idempotency-Key')).toBeTruthy();
  });

  it('a session that ends at the partner call sends nothing more; signing in again returns to the customers', async () => {
    const api = server(
      () => jsonResponse(401, { message: 'Session expired' }),
      undefined,
      [],
      answer('POST', 'account/login', () =>
        jsonResponse(200, {
          result: { token: 'tok-2', user: wireUser({ _id: IDS.retailer, type: UserType.RETAILER }) },
        }),
      ),
    );
    const tab = fakeTab();
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { user, dialog } = await openSelectProduct();
    await proceedWith(user, dialog, 'PayU Sprint Bank', 'Saving Account');

    expect(await screen.findByRole('heading', { name: 'Welcome back!' })).toBeInTheDocument();
    // The partner call, then the panel's own sign-out; no sale.
    expect(api.posts().map(([call]) => call)).toEqual([
      'POST payusprint/saving_account',
      'POST account/logout',
    ]);
    expect(screen.queryByText(SALES_MSG.saleRecorded)).not.toBeInTheDocument();
    expect(tab.close).toHaveBeenCalled();
    expect(localStorage.getItem(SESSION_KEYS.authToken)).toBeNull();

    // Signing in again returns to where the person was, not to /home.
    await user.type(screen.getByLabelText('Mobile *'), '9300000001');
    await user.type(screen.getByLabelText('Password *'), 'Secret@123');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(
      await screen.findByRole('button', { name: 'Select Product for Ramesh Kumar' }),
    ).toBeInTheDocument();
    expect(api.posts().map(([call]) => call)).toEqual([
      'POST payusprint/saving_account',
      'POST account/logout',
      'POST account/login',
    ]);
  });

  it('a PENDING sale of the product asks first, and reopens its account opening instead of selling again', async () => {
    const PENDING = wireSale({ status: 'PENDING', confirmedAt: null, utmCode: 'UTMOLD1' });
    const OPENING = URL_OF('UTMOLD1');
    const api = server(undefined, undefined, [PENDING], (request) =>
      request.method === 'GET' && request.path === `bought_products/opening/${IDS.sale}`
        ? jsonResponse(200, { result: { url: OPENING } })
        : undefined,
    );
    const tabs = tabsOpened();
    const { user, dialog } = await openSelectProduct();
    await proceedWith(user, dialog, 'PayU Sprint Bank', 'Saving Account');

    const ask = await screen.findByRole('dialog', { name: 'A sale is already pending' });
    expect(ask).toHaveTextContent(/Ramesh Kumar already has a pending sale of Saving Account \(UTMOLD1, /);
    // Nothing sold while it asks; the blank tab of the Proceed is closed.
    expect(api.posts()).toEqual([]);
    expect(tabs[0].close).toHaveBeenCalled();

    await user.click(within(ask).getByRole('button', { name: 'Reopen account opening' }));
    await waitFor(() => expect(tabs[1]?.location.href).toBe(OPENING));
    expect(tabs[1].opener).toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.posts()).toEqual([]);

    // The customer's sales, from its row.
    await user.click(screen.getByRole('button', { name: 'Sales of Ramesh Kumar' }));
    expect(
      await screen.findByText(`AT /sale/list?filter={"customerId":"${IDS.customer}"}`),
    ).toBeInTheDocument();
  });

  it('Sell again, once confirmed, sells the product a second time', async () => {
    const PENDING = wireSale({ status: 'PENDING', confirmedAt: null, utmCode: 'UTMOLD1' });
    const api = server(undefined, undefined, [PENDING]);
    const tabs = tabsOpened();
    const { user, dialog } = await openSelectProduct();
    await proceedWith(user, dialog, 'PayU Sprint Bank', 'Saving Account');
    const ask = await screen.findByRole('dialog', { name: 'A sale is already pending' });
    await user.click(within(ask).getByRole('button', { name: 'Sell again' }));
    expect(await screen.findByText(SALES_MSG.saleRecorded)).toBeInTheDocument();
    expect(tabs[1].location.href).toBe(URL_OF('UTMSAVING1'));
    expect(api.posts().map(([call]) => call)).toEqual([
      'POST payusprint/saving_account',
      'POST bought_products/create',
    ]);
  });
});
