import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuthProvider, DataProvider } from 'react-admin';
import { AdminContext, memoryStore, testDataProvider } from 'react-admin';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { formatDate } from '../../src/shared/format';
import { HINDI } from '../../src/shared/i18n/hindi';
import { MSG } from '../../src/shared/messages';
import { CATALOG_MSG } from '../../src/shared/schemas/catalog';
import { LOCATION_MSG } from '../../src/shared/schemas/locations';
import { hi } from '../../src/web/i18n/hi';
import { i18nProvider } from '../../src/web/i18n/i18n';
import { ProductList } from '../../src/web/resources/products/ProductList';
import { StateList } from '../../src/web/resources/states/StateList';
import { TehsilList } from '../../src/web/resources/tehsils/TehsilList';
import { labelledField, renderInAdmin } from './helpers';

const authProvider = (allowed: (action: string) => boolean = () => true): AuthProvider => ({
  login: async () => {},
  logout: async () => {},
  checkAuth: async () => {},
  checkError: async () => {},
  getPermissions: async () => 0,
  canAccess: async ({ action }) => allowed(action),
});

const STATES = [
  {
    id: '00000000-0000-4000-8000-000000000101',
    name: 'uttar pradesh',
    createdAt: '2026-11-21T12:00:00.000Z',
  },
  { id: '00000000-0000-4000-8000-000000000102', name: 'MAHARASHTRA', createdAt: '2026-01-05T12:00:00.000Z' },
];
const DISTRICTS = [
  {
    id: '00000000-0000-4000-8000-000000000201',
    name: 'lucknow',
    stateId: '00000000-0000-4000-8000-000000000101',
    state: { id: '00000000-0000-4000-8000-000000000101', name: 'uttar pradesh' },
  },
  {
    id: '00000000-0000-4000-8000-000000000202',
    name: 'pune',
    stateId: '00000000-0000-4000-8000-000000000102',
    state: { id: '00000000-0000-4000-8000-000000000102', name: 'maharashtra' },
  },
];

const renderAt = (
  path: string,
  element: React.ReactNode,
  dataProvider: DataProvider,
  auth = authProvider(),
) =>
  render(
    renderInAdmin(
      <Routes>
        <Route path={path} element={element} />
        <Route path="/location/tehsil/list" element={element} />
      </Routes>,
      { path, dataProvider, authProvider: auth },
    ),
  );

describe('State list', () => {
  it('shows names in title case and dates in medium format, 10 a page, newest first', async () => {
    const getList = vi.fn().mockResolvedValue({ data: STATES, total: 2 });
    renderAt('/location/state/list', <StateList />, testDataProvider({ getList }));
    expect(await screen.findByText('Uttar Pradesh')).toBeInTheDocument();
    expect(screen.getByText('Maharashtra')).toBeInTheDocument();
    expect(screen.getByText(formatDate('2026-11-21T12:00:00.000Z'))).toBeInTheDocument();
    expect(screen.getByText(formatDate('2026-01-05T12:00:00.000Z'))).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'States' })).toBeInTheDocument();
    expect(getList).toHaveBeenCalledWith(
      'states',
      expect.objectContaining({
        pagination: { page: 1, perPage: 10 },
        sort: { field: 'createdAt', order: 'DESC' },
      }),
    );
  });

  it("shows 'No Data Found' when there are no rows", async () => {
    const getList = vi.fn().mockResolvedValue({ data: [], total: 0 });
    renderAt('/location/state/list', <StateList />, testDataProvider({ getList }));
    expect(await screen.findByText(MSG.noData)).toBeInTheDocument();
  });

  it('pages with first/last buttons and refetches on a page change', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({ id: `s-${i}`, name: `state ${i}`, createdAt: '' }));
    const getList = vi.fn().mockResolvedValue({ data: rows, total: 95 });
    const user = userEvent.setup();
    renderAt('/location/state/list', <StateList />, testDataProvider({ getList }));
    const nav = await screen.findByRole('navigation', { name: 'Pagination' });
    expect(within(nav).getByRole('button', { name: 'Go to first page' })).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: 'Go to last page' })).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: 'Go to page 10' })).toBeInTheDocument();
    await user.click(within(nav).getByRole('button', { name: 'Go to page 2' }));
    await waitFor(() =>
      expect(getList).toHaveBeenLastCalledWith(
        'states',
        expect.objectContaining({ pagination: { page: 2, perPage: 10 } }),
      ),
    );
  });

  it("creates through the modal: 'Invalid data!' first, then the success toast and a refetch", async () => {
    const user = userEvent.setup();
    const getList = vi.fn().mockResolvedValue({ data: STATES, total: 2 });
    const create = vi
      .fn()
      .mockResolvedValue({ data: { id: '00000000-0000-4000-8000-000000000103', name: 'goa' } });
    renderAt('/location/state/list', <StateList />, testDataProvider({ getList, create }));
    await user.click(await screen.findByRole('button', { name: 'Add State' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New State' });
    expect(within(dialog).getByLabelText(/Name/)).toHaveFocus();
    // Untouched: no message yet.
    expect(within(dialog).queryByText(LOCATION_MSG.stateNameRequired)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(MSG.validationFailed)).toBeInTheDocument();
    expect(within(dialog).getByText(LOCATION_MSG.stateNameRequired)).toBeInTheDocument();
    expect(create).not.toHaveBeenCalled();

    const calls = getList.mock.calls.length;
    await user.type(within(dialog).getByLabelText(/Name/), 'goa');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(LOCATION_MSG.stateCreated)).toBeInTheDocument();
    expect(create).toHaveBeenCalledWith('states', { data: { name: 'goa' } });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(getList.mock.calls.length).toBeGreaterThan(calls));
  });

  it("edits a row in the 'Update State' modal", async () => {
    const user = userEvent.setup();
    const getList = vi.fn().mockResolvedValue({ data: STATES, total: 2 });
    const update = vi.fn().mockResolvedValue({
      data: { id: '00000000-0000-4000-8000-000000000101', name: 'uttar pradesh east' },
    });
    renderAt('/location/state/list', <StateList />, testDataProvider({ getList, update }));
    await user.click(await screen.findByRole('button', { name: 'Edit Uttar Pradesh' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update State' });
    const name = within(dialog).getByLabelText(/Name/);
    expect(name).toHaveValue('uttar pradesh');
    await user.type(name, ' east');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText(LOCATION_MSG.stateUpdated)).toBeInTheDocument();
    expect(update).toHaveBeenCalledWith('states', {
      id: '00000000-0000-4000-8000-000000000101',
      data: { name: 'uttar pradesh east' },
      previousData: STATES[0],
    });
  });

  it('hides Add and Edit from roles the role table refuses', async () => {
    const getList = vi.fn().mockResolvedValue({ data: STATES, total: 2 });
    renderAt(
      '/location/state/list',
      <StateList />,
      testDataProvider({ getList }),
      authProvider((action) => action === 'list' || action === 'export'),
    );
    expect(await screen.findByText('Uttar Pradesh')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add State' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Edit/ })).not.toBeInTheDocument();
  });
});

describe('Tehsil modal typeaheads', () => {
  const getList = vi.fn(async (resource: string, params: { filter: Record<string, unknown> }) => {
    if (resource === 'states') return { data: STATES, total: 2 };
    if (resource === 'districts') {
      const data = DISTRICTS.filter((d) => !params.filter.stateId || d.stateId === params.filter.stateId);
      return { data, total: data.length };
    }
    return { data: [], total: 0 };
  });

  const getMany = vi.fn(async (resource: string, params: { ids: string[] }) => ({
    data: (resource === 'states' ? STATES : DISTRICTS).filter((r) => params.ids.includes(r.id)),
  }));

  it('opens at /location/tehsil/create; a chosen state limits the districts; announces the result count', async () => {
    const user = userEvent.setup();
    const create = vi.fn().mockResolvedValue({ data: { id: 't-1' } });
    renderAt(
      '/location/tehsil/create',
      <TehsilList openCreate />,
      testDataProvider({ getList, getMany, create } as unknown as Partial<DataProvider>),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Create New Tehsil' });
    const district = within(dialog).getByRole('combobox', { name: /District/ });
    expect(district).toBeDisabled();

    // The first field has the focus when the modal opens; its suggestions wait for the person to ask (a click,
    // typing or Alt+Down), so they cover nothing and Escape still closes the modal.
    const state = within(dialog).getByRole('combobox', { name: /State/ });
    expect(state).toHaveFocus();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await user.click(state);
    expect(await within(dialog).findByText('2 result(s) available')).toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'Maharashtra' }));
    // The district typeahead is rebuilt for the chosen state.
    await waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: /District/ })).not.toBeDisabled(),
    );

    await user.click(within(dialog).getByRole('combobox', { name: /District/ }));
    expect(await screen.findByRole('option', { name: 'Pune' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Lucknow' })).not.toBeInTheDocument();
    expect(getList).toHaveBeenCalledWith(
      'districts',
      expect.objectContaining({
        filter: { stateId: '00000000-0000-4000-8000-000000000102' },
        pagination: { page: 1, perPage: 10 },
      }),
    );
    await user.click(screen.getByRole('option', { name: 'Pune' }));
    await user.type(within(dialog).getByLabelText(/Tehsil Name/), 'haveli');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(LOCATION_MSG.tehsilCreated)).toBeInTheDocument();
    expect(create).toHaveBeenCalledWith('tehsils', {
      data: {
        stateId: '00000000-0000-4000-8000-000000000102',
        districtId: '00000000-0000-4000-8000-000000000202',
        name: 'haveli',
      },
    });
  });

  it("says 'Sorry, suggestions could not be loaded.' when the lookup fails", async () => {
    const user = userEvent.setup();
    const failing = vi.fn(async (resource: string) => {
      if (resource === 'states') throw new Error('Error: boom');
      return { data: [], total: 0 };
    });
    render(
      <MemoryRouter initialEntries={['/location/tehsil/create']}>
        <AdminContext
          store={memoryStore()}
          dataProvider={testDataProvider({ getList: failing } as unknown as Partial<DataProvider>)}
          authProvider={authProvider()}
          i18nProvider={i18nProvider}
          queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
        >
          <TehsilList openCreate />
        </AdminContext>
      </MemoryRouter>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Create New Tehsil' });
    await user.click(within(dialog).getByRole('combobox', { name: /State/ }));
    expect(
      (await within(dialog).findAllByText('Sorry, suggestions could not be loaded.')).length,
    ).toBeGreaterThan(0);
  });
});

describe('Product list', () => {
  const PRODUCT = {
    id: 'p-1',
    name: 'saving account',
    providerId: '00000000-0000-4000-8000-000000000301',
    provider: { id: 'v-1', name: 'payu sprint' },
    amount: 500,
    adminCommission: 40,
    masterDistributorCommission: 15,
    distributorCommission: 15,
    retailerCommission: 20,
    customerCommission: 10,
    url: 'https://partner.example/open',
    urlParams: { reqType: 'GET', data: 'PAYUSPRINT-SAVING' },
    createdAt: '2026-11-21T12:00:00.000Z',
  };
  const getList = vi.fn(async (resource: string) =>
    resource === 'providers' ? { data: [PRODUCT.provider], total: 1 } : { data: [PRODUCT], total: 1 },
  );

  it('shows the columns and refuses commissions that sum to 99, then shows the server message', async () => {
    const user = userEvent.setup();
    const update = vi
      .fn()
      .mockResolvedValue({ data: { id: 'p-1' }, meta: { message: CATALOG_MSG.productUpdated } });
    renderAt(
      '/product/list',
      <ProductList />,
      testDataProvider({
        getList,
        update,
        getMany: async () => ({ data: [PRODUCT.provider] }),
      } as unknown as Partial<DataProvider>),
    );
    const row = (await screen.findByText('Saving Account')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Payu Sprint')).toBeInTheDocument();
    expect(within(row).getByText(formatDate('2026-11-21T12:00:00.000Z'))).toBeInTheDocument();
    // The seed: "No Add button is present in the screen, although a create action exists".
    expect(screen.queryByRole('button', { name: /^Add/ })).not.toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: /Edit/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Update Product' });
    const customer = labelledField(dialog, 'Customer Commission');
    await user.clear(customer);
    await user.type(customer, '9');
    await user.tab();
    expect(await within(dialog).findByText(CATALOG_MSG.commissionTotal)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText(MSG.validationFailed)).toBeInTheDocument();
    expect(update).not.toHaveBeenCalled();

    await user.type(customer, '.5');
    await user.clear(labelledField(dialog, 'Admin Commission'));
    await user.type(labelledField(dialog, 'Admin Commission'), '40.5');
    await waitFor(() =>
      expect(within(dialog).queryByText(CATALOG_MSG.commissionTotal)).not.toBeInTheDocument(),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText(CATALOG_MSG.productUpdated)).toBeInTheDocument();
    expect(update).toHaveBeenCalledWith(
      'products',
      expect.objectContaining({
        id: 'p-1',
        data: expect.objectContaining({ adminCommission: 40.5, customerCommission: 9.5, amount: 500 }),
      }),
    );
  });

  it('names the account types in Hindi, never by their codes', async () => {
    const user = userEvent.setup();
    render(
      renderInAdmin(<ProductList />, {
        path: '/product/list',
        locale: 'hi',
        authProvider: authProvider(),
        dataProvider: testDataProvider({
          getList,
          getMany: async () => ({ data: [PRODUCT.provider] }),
        } as unknown as Partial<DataProvider>),
      }),
    );
    const row = (await screen.findByText('Saving Account')).closest('tr') as HTMLElement;
    await user.click(within(row).getAllByRole('button')[0]);
    const dialog = await screen.findByRole('dialog', { name: hi.app.products.updateTitle });
    expect(within(dialog).getByText(HINDI.accountTypes['PAYUSPRINT-SAVING'])).toBeInTheDocument();
    await user.click(within(dialog).getByText(HINDI.accountTypes['PAYUSPRINT-SAVING']));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(expect.arrayContaining(Object.values(HINDI.accountTypes)));
    expect(options.join(' ')).not.toMatch(/PAYUSPRINT-/);
  });
});
