import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuthProvider } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { SALES_MSG } from '../../src/shared/schemas/sales';
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

/** Customers, the catalogue, the partner (by default answering an opening) and bought_products/create. */
const server = (
  partner = (utm: string) =>
    jsonResponse(200, { result: { result: { data: URL_OF(utm) }, merchantCode: 'M-42' } }),
) =>
  stubServer(
    listOf('account/fetch', 'users', (q) => (q.get('type') === '1' ? [CUSTOMER] : [])),
    listOf('providers/fetch', 'providers', () => PROVIDERS),
    listOf('products/fetch', 'products', (q) =>
      PRODUCTS.filter((p) => !q.get('providerId') || p.providerId._id === q.get('providerId')),
    ),
    answer('POST', 'payusprint/saving_account', () => partner('UTMSAVING1')),
    answer('POST', 'payusprint/current_account', () => partner('UTMCURRENT1')),
    answer('POST', 'bought_products/create', () =>
      jsonResponse(200, {
        result: wireSale({ status: 'PENDING', confirmedAt: null }),
        message: SALES_MSG.saleRecorded,
      }),
    ),
  );

/** A stand-in for the tab window.open returns: a blank page whose location the panel sets. */
const fakeTab = () => {
  const tab = { closed: false, opener: {} as unknown, location: { href: 'about:blank' }, close: vi.fn() };
  tab.close.mockImplementation(() => {
    tab.closed = true;
  });
  return tab;
};

const renderCustomers = (auth: AuthProvider = authProvider) =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/customer/list" element={<CustomerList />} />
      </Routes>,
      { path: '/customer/list', dataProvider: createDataProvider(), authProvider: auth },
    ),
  );

const openModal = async (user: ReturnType<typeof userEvent.setup>) => {
  // The first render of a file pays for the imports: on a loaded machine the list takes more than a second.
  await user.click(await screen.findByRole('button', { name: 'Select Product for Ramesh Kumar' }));
  return screen.findByRole('dialog', { name: 'Select Product' });
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

describe('Select Product (seed sections 2, 4, 5)', () => {
  it("without both: the seed's messages, and nothing is sent or opened", async () => {
    login(UserType.RETAILER, IDS.retailer);
    const api = server();
    const open = vi.spyOn(window, 'open');
    const user = userEvent.setup();
    renderCustomers();
    const dialog = await openModal(user);
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
    login(UserType.RETAILER, IDS.retailer);
    const api = server();
    const tab = fakeTab();
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const user = userEvent.setup();
    renderCustomers();
    const dialog = await openModal(user);
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
    login(UserType.ADMIN, IDS.admin);
    const api = server();
    const tab = fakeTab();
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const user = userEvent.setup();
    renderCustomers();
    let dialog = await openModal(user);
    await choose(user, dialog, 'Provider', 'NSDL Payments Bank');
    await choose(user, dialog, 'Product', 'Sole Proprietor Account');
    await user.click(within(dialog).getByRole('button', { name: 'Proceed' }));
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
    await choose(user, dialog, 'Provider', 'PayU Sprint Bank');
    await choose(user, dialog, 'Product', 'Current Account');
    await user.click(within(dialog).getByRole('button', { name: 'Proceed' }));
    await waitFor(() => expect(api.posts()).toHaveLength(4));
    expect(api.posts()[2]).toEqual([
      'POST payusprint/current_account',
      { accountType: 'PAYUSPRINT-CURRENT', productId: IDS.current, customerId: IDS.customer },
    ]);
  });

  it('a partner failure shows the error toast, closes the blank tab and keeps the modal open', async () => {
    login(UserType.RETAILER, IDS.retailer);
    const api = server(() => jsonResponse(502, { message: SALES_MSG.partnerFailed(500) }, 'Bad Gateway'));
    const tab = fakeTab();
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const user = userEvent.setup();
    renderCustomers();
    const dialog = await openModal(user);
    await choose(user, dialog, 'Provider', 'PayU Sprint Bank');
    await choose(user, dialog, 'Product', 'Saving Account');
    await user.click(within(dialog).getByRole('button', { name: 'Proceed' }));

    expect(await screen.findByText(`Error: ${SALES_MSG.partnerFailed(500)}`)).toBeInTheDocument();
    expect(screen.getByText('Error!!!')).toBeInTheDocument();
    expect(tab.close).toHaveBeenCalled();
    expect(api.posts().map(([call]) => call)).toEqual(['POST payusprint/saving_account']);
    expect(screen.getByRole('dialog', { name: 'Select Product' })).toBeInTheDocument();
    // Ready to try again.
    expect(within(dialog).getByRole('button', { name: 'Proceed' })).toBeEnabled();
  });

  it('when the browser refuses the tab, the recorded sale offers the URL as a link', async () => {
    login(UserType.RETAILER, IDS.retailer);
    server();
    vi.spyOn(window, 'open').mockReturnValue(null);
    const user = userEvent.setup();
    renderCustomers();
    const dialog = await openModal(user);
    await choose(user, dialog, 'Provider', 'PayU Sprint Bank');
    await choose(user, dialog, 'Product', 'Saving Account');
    await user.click(within(dialog).getByRole('button', { name: 'Proceed' }));
    const link = await within(dialog).findByRole('link', { name: 'Open the account-opening page' });
    expect(link).toHaveAttribute('href', URL_OF('UTMSAVING1'));
    expect(link).toHaveAttribute('target', '_blank');
    expect(within(dialog).queryByRole('button', { name: 'Proceed' })).not.toBeInTheDocument();
  });

  it('Cancel closes the modal without a call', async () => {
    login(UserType.EMPLOYEE, IDS.admin);
    const api = server();
    const user = userEvent.setup();
    renderCustomers();
    const dialog = await openModal(user);
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
});
