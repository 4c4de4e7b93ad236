import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuthProvider, DataProvider, RaRecord } from 'react-admin';
import { testDataProvider } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import type { MockInstance } from 'vitest';
import { APPROVAL_MSG } from '../../src/shared/constants/approvals';
import { UserType } from '../../src/shared/enums';
import { formatDate } from '../../src/shared/format';
import { verhoeffDigit } from '../../src/shared/identity';
import { MSG } from '../../src/shared/messages';
import { USER_MSG, USER_SAVED_MSG } from '../../src/shared/schemas/users';
import { authProvider } from '../../src/web/providers/authProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { CustomerList } from '../../src/web/resources/customers/CustomerList';
import { DistributorList } from '../../src/web/resources/distributors/DistributorList';
import { EmployeeList } from '../../src/web/resources/employees/EmployeeList';
import { MasterDistributorList } from '../../src/web/resources/masterDistributors/MasterDistributorList';
import { RetailerList } from '../../src/web/resources/retailers/RetailerList';
import { labelledField, renderInAdmin, waitForSettled, wireUser } from './helpers';

// Ids are UUIDs: the modals check them with the server's schemas.
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const D1 = uuid(1);
const T1 = uuid(2);
const MD1 = uuid(3);
const MD2 = uuid(4);
const X1 = uuid(5);
const X2 = uuid(6);
const R1 = uuid(7);
const C1 = uuid(8);

/** The session of a signed-in user of the given type: the real authProvider reads the role from it. */
const login = (type: UserType) => {
  const user = wireUser({ type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const base = {
  email: 'ravi@example.in',
  mobile: '9812345678',
  userName: 'ravi1',
  status: 'ACTIVE',
  districtId: D1,
  district: { id: D1, name: 'jaipur' },
  tehsilId: T1,
  tehsil: { id: T1, name: 'sanganer' },
  balance: 1250.5,
  clearingBalance: 30,
  createdAt: '2026-11-21T12:00:00.000Z',
};
const CUSTOMER = {
  ...base,
  id: C1,
  name: 'ravi kumar',
  type: UserType.CUSTOMER,
  aadharId: 'XXXXXXXX1234',
  panId: 'ABCDE1234F',
  retailerId: R1,
  retailer: { id: R1, name: 'shiv store' },
};
const MASTERS = [
  { ...base, id: MD1, name: 'mahesh traders', type: UserType.MASTER_DISTRIBUTOR },
  { ...base, id: MD2, name: 'narmada links', type: UserType.MASTER_DISTRIBUTOR, status: 'INACTIVE' },
];
const DISTRIBUTORS = [
  { ...base, id: X1, name: 'dev agencies', masterDistributorId: MD1, type: UserType.DISTRIBUTOR },
  { ...base, id: X2, name: 'ganga sales', masterDistributorId: MD2, type: UserType.DISTRIBUTOR },
];
const TABLES: Record<string, RaRecord[]> = {
  districts: [{ id: D1, name: 'jaipur' }],
  tehsils: [{ id: T1, name: 'sanganer', districtId: D1 }],
  masterDistributors: MASTERS,
  distributors: DISTRIBUTORS,
  retailers: [{ ...base, id: R1, name: 'shiv store', type: UserType.RETAILER }],
  customers: [CUSTOMER],
};

/** getList/getMany over TABLES, honouring the filters the modals send. */
const fakeData = (overrides: Partial<DataProvider> = {}) => {
  const getList = vi.fn(async (resource: string, params: { filter?: Record<string, unknown> }) => {
    const { q: _q, ...filter } = params.filter ?? {};
    const data = (TABLES[resource] ?? []).filter((row) =>
      Object.entries(filter).every(([key, value]) => row[key] === value),
    );
    return { data, total: data.length };
  });
  const getMany = vi.fn(async (resource: string, params: { ids: unknown[] }) => ({
    data: (TABLES[resource] ?? []).filter((row) => params.ids.includes(row.id)),
  }));
  const create = vi.fn(async (_resource: string, params: { data: RaRecord }) => ({
    data: { ...params.data, id: uuid(99) },
  }));
  const update = vi.fn(async (_resource: string, params: { id: unknown; data: RaRecord }) => ({
    data: { ...params.data, id: params.id },
  }));
  const provider = testDataProvider({ getList, getMany, create, update, ...overrides } as never);
  return { provider, getList, getMany, create, update };
};

const renderList = (
  path: string,
  element: React.ReactNode,
  dataProvider: DataProvider,
  auth?: AuthProvider,
) => {
  const queryClient = new QueryClient();
  const view = render(
    renderInAdmin(
      <Routes>
        <Route path={path} element={element} />
      </Routes>,
      { path, dataProvider, queryClient, ...(auth ? { authProvider: auth } : {}) },
    ),
  );
  return { ...view, queryClient };
};

/** Waits until the Update Status permission was asked and its answer shown, so an absent button is really absent. */
let spy: MockInstance<NonNullable<typeof authProvider.canAccess>>;
const statusPermissionSettled = async (queryClient: QueryClient) => {
  await waitFor(() =>
    expect(spy).toHaveBeenCalledWith(expect.objectContaining({ resource: 'userStatus', action: 'edit' })),
  );
  await waitForSettled(queryClient);
};

const headers = () => screen.getAllByRole('columnheader').map((cell) => cell.textContent);

const aadhar = (base11: string) => `${base11}${verhoeffDigit(base11)}`;

describe('user lists: columns', () => {
  it('master distributors: the seed columns, rupees, Update Status and Edit for an admin', async () => {
    login(UserType.ADMIN);
    const { provider } = fakeData();
    renderList('/master/distributor/list', <MasterDistributorList />, provider);
    const row = (await screen.findByText('Mahesh Traders')).closest('tr') as HTMLElement;
    await screen.findByRole('button', { name: 'Update Status of Mahesh Traders' });
    expect(screen.getByRole('heading', { level: 1, name: 'Master Distributors' })).toBeInTheDocument();
    expect(headers()).toEqual([
      'Name',
      'Mobile',
      'Email',
      'District',
      'Tehsil',
      'PAN Id',
      'Clearing Balance',
      'Balance',
      'Status',
      'Created At',
      'Actions',
    ]);
    for (const text of ['9812345678', 'ravi@example.in', 'Jaipur', 'Sanganer', '₹30.00', '₹1,250.50'])
      expect(within(row).getByText(text)).toBeInTheDocument();
    expect(within(row).getByText(formatDate('2026-11-21T12:00:00.000Z'))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Master Distributor' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export' })).toBeInTheDocument();
  });

  it('Export for import downloads the server’s file of the whole list, in the import template’s columns', async () => {
    login(UserType.ADMIN);
    const getFile = vi.fn(async () => new Blob(['name,email\r\n'], { type: 'text/csv' }));
    const { provider } = fakeData({ getFile } as never);
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:export');
    const revoked = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    try {
      const user = userEvent.setup();
      renderList('/retailer/list', <RetailerList />, provider);
      await screen.findByText('Shiv Store');
      await user.click(screen.getByRole('button', { name: 'Export for import' }));
      await waitFor(() => expect(getFile).toHaveBeenCalledWith('import/export/retailers', {}));
      await waitFor(() => expect(created).toHaveBeenCalled());
    } finally {
      created.mockRestore();
      revoked.mockRestore();
    }
  });

  it('distributors, retailers and employees: the seed columns in the seed order', async () => {
    login(UserType.ADMIN);
    const { provider } = fakeData();
    const { unmount } = renderList('/distributor/list', <DistributorList />, provider);
    await screen.findByRole('button', { name: 'Update Status of Dev Agencies' });
    expect(headers()).toEqual([
      'Name',
      'Mobile',
      'Email',
      'Master Distributor',
      'District',
      'Tehsil',
      'PAN Id',
      'Balance',
      'Clearing Balance',
      'Status',
      'Created At',
      'Actions',
    ]);
    unmount();
    const retailers = renderList('/retailer/list', <RetailerList />, provider);
    await screen.findByRole('button', { name: 'Update Status of Shiv Store' });
    expect(headers()).toEqual([
      'Name',
      'Mobile',
      'Email',
      'Distributor',
      'District',
      'Tehsil',
      'PAN Id',
      'Clearing Balance',
      'Balance',
      'Status',
      'Created At',
      'Actions',
    ]);
    retailers.unmount();
    TABLES.employees = [{ ...base, id: uuid(20), name: 'esha staff', type: UserType.EMPLOYEE }];
    renderList('/employee/list', <EmployeeList />, provider);
    await screen.findByText('Esha Staff');
    expect(screen.getByRole('heading', { level: 1, name: 'Employee' })).toBeInTheDocument();
    expect(headers()).toEqual([
      'Name',
      'Mobile',
      'Email',
      'District',
      'Tehsil',
      'Balance',
      'Clearing Balance',
      'Status',
      'Created At',
      'Actions',
    ]);
  });

  it('customers: masked Aadhar, PAN, retailer; paging refetches (unlike the seed)', async () => {
    login(UserType.ADMIN);
    const rows = Array.from({ length: 10 }, (_, i) => ({
      ...CUSTOMER,
      id: uuid(100 + i),
      name: `cust ${i}`,
    }));
    const getList = vi.fn().mockResolvedValue({ data: [CUSTOMER, ...rows.slice(1)], total: 25 });
    const user = userEvent.setup();
    renderList('/customer/list', <CustomerList />, testDataProvider({ getList }));
    const row = (await screen.findByText('Ravi Kumar')).closest('tr') as HTMLElement;
    await screen.findByRole('button', { name: 'Update Status of Ravi Kumar' });
    expect(screen.getByRole('heading', { level: 1, name: 'Customers' })).toBeInTheDocument();
    expect(headers()).toEqual([
      'Name',
      'Mobile',
      'Email',
      'PAN Id',
      'Aadhar Id',
      'Retailer',
      'District',
      'Tehsil',
      'Created At',
      'Actions',
    ]);
    for (const text of ['XXXXXXXX1234', 'ABCDE1234F', 'Shiv Store'])
      expect(within(row).getByText(text)).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Select Product for Ravi Kumar' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Pagination' });
    await user.click(within(nav).getByRole('button', { name: 'Go to page 2' }));
    await waitFor(() =>
      expect(getList).toHaveBeenLastCalledWith(
        'customers',
        expect.objectContaining({ pagination: { page: 2, perPage: 10 } }),
      ),
    );
  });
});

describe('role gating (the role table through the real authProvider)', () => {
  beforeEach(() => {
    spy = vi.spyOn(authProvider as Required<typeof authProvider>, 'canAccess');
  });

  it('an employee sees distributors with Edit but without Add Distributor or Update Status', async () => {
    login(UserType.EMPLOYEE);
    const { provider } = fakeData();
    const { queryClient } = renderList('/distributor/list', <DistributorList />, provider);
    await screen.findByText('Dev Agencies');
    await screen.findAllByRole('button', { name: /^Edit/ });
    await statusPermissionSettled(queryClient);
    expect(screen.queryByRole('button', { name: 'Add Distributor' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Update Status/ })).not.toBeInTheDocument();
    expect(headers()).not.toContain('Update Status');
  });

  it('a master distributor sees its retailers read-only; an admin gets Add Retailer', async () => {
    login(UserType.MASTER_DISTRIBUTOR);
    const { provider } = fakeData();
    const { unmount, queryClient } = renderList('/retailer/list', <RetailerList />, provider);
    await screen.findByText('Shiv Store');
    await statusPermissionSettled(queryClient);
    expect(screen.getByRole('button', { name: 'Export' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Retailer' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Edit/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Update Status/ })).not.toBeInTheDocument();
    unmount();
    localStorage.clear();
    login(UserType.ADMIN);
    renderList('/retailer/list', <RetailerList />, provider);
    expect(await screen.findByRole('button', { name: 'Add Retailer' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Update Status of Shiv Store' })).toBeInTheDocument();
  });

  it('a retailer adds customers without Update Status, and its modal has no retailer typeahead', async () => {
    login(UserType.RETAILER);
    const user = userEvent.setup();
    const { provider } = fakeData();
    const { queryClient } = renderList('/customer/list', <CustomerList />, provider);
    // A retailer sells (role table sales.create).
    await screen.findByRole('button', { name: 'Select Product for Ravi Kumar' });
    await screen.findByText('Ravi Kumar');
    await statusPermissionSettled(queryClient);
    expect(screen.queryByRole('button', { name: /Update Status/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add Customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Customer' });
    expect(labelledField(dialog, 'Aadhar Id')).toBeInTheDocument();
    expect(within(dialog).queryByRole('combobox', { name: 'Retailer' })).not.toBeInTheDocument();
  });
});

describe('customer modal validation', () => {
  it('shows the field messages once touched, toasts Invalid data!, then creates', async () => {
    login(UserType.ADMIN);
    const user = userEvent.setup();
    const { provider, create } = fakeData();
    renderList('/customer/list', <CustomerList />, provider);
    await user.click(await screen.findByRole('button', { name: 'Add Customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Customer' });
    expect(within(dialog).getByRole('combobox', { name: 'Retailer' })).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Tehsil' })).toBeDisabled();
    // Nothing touched: no messages.
    expect(within(dialog).queryByText(MSG.required)).not.toBeInTheDocument();

    const field = (label: string) => labelledField(dialog, label);
    await user.type(field('Mobile'), '12345');
    await user.type(field('Email'), 'not-an-email');
    await user.type(field('Aadhar Id'), '23456789');
    await user.type(field('PAN Id'), 'abc12');
    await user.click(field('Name'));
    expect(await within(dialog).findByText(MSG.invalidMobile)).toBeInTheDocument();
    expect(within(dialog).getByText(MSG.invalidEmail)).toBeInTheDocument();
    expect(within(dialog).getByText(MSG.aadharLength)).toBeInTheDocument();
    expect(within(dialog).getByText(MSG.invalidValue)).toBeInTheDocument();

    // 12 digits with a wrong Verhoeff check digit.
    const valid = aadhar('23456789012');
    const wrong = `${valid.slice(0, 11)}${(Number(valid[11]) + 1) % 10}`;
    await user.clear(field('Aadhar Id'));
    await user.type(field('Aadhar Id'), wrong);
    expect(await within(dialog).findByText(USER_MSG.invalidAadhar)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(MSG.validationFailed)).toBeInTheDocument();
    expect(within(dialog).getAllByText(MSG.required).length).toBeGreaterThan(0);
    expect(create).not.toHaveBeenCalled();

    await user.clear(field('Mobile'));
    await user.type(field('Mobile'), '9876543210');
    await user.clear(field('Email'));
    await user.type(field('Email'), 'sita@example.in');
    await user.clear(field('Aadhar Id'));
    await user.type(field('Aadhar Id'), valid);
    await user.clear(field('PAN Id'));
    await user.type(field('PAN Id'), 'abcde1234f');
    await user.type(field('Name'), 'sita devi');
    await user.type(field('User Name'), 'sita1');
    await user.click(within(dialog).getByRole('combobox', { name: 'District' }));
    await user.click(await screen.findByRole('option', { name: 'Jaipur' }));
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Tehsil' })).not.toBeDisabled());
    await user.click(within(dialog).getByRole('combobox', { name: 'Tehsil' }));
    await user.click(await screen.findByRole('option', { name: 'Sanganer' }));
    await waitFor(() => expect(within(dialog).queryByText(MSG.invalidValue)).not.toBeInTheDocument());
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(USER_SAVED_MSG[UserType.CUSTOMER].created)).toBeInTheDocument();
    expect(create).toHaveBeenCalledWith('customers', {
      data: {
        name: 'sita devi',
        email: 'sita@example.in',
        mobile: '9876543210',
        userName: 'sita1',
        districtId: D1,
        tehsilId: T1,
        aadharId: valid,
        panId: 'abcde1234f',
        retailerId: null,
      },
    });
  });

  it('on update keeps the masked Aadhar number as valid', async () => {
    login(UserType.ADMIN);
    const user = userEvent.setup();
    const { provider, update } = fakeData();
    renderList('/customer/list', <CustomerList />, provider);
    await user.click(await screen.findByRole('button', { name: 'Edit Ravi Kumar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update Customer' });
    expect(labelledField(dialog, 'Aadhar Id')).toHaveValue('XXXXXXXX1234');
    expect(within(dialog).getByText('Leave the masked number to keep it')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: 'Retailer' })).toHaveValue('Shiv Store'),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText(USER_SAVED_MSG[UserType.CUSTOMER].updated)).toBeInTheDocument();
    expect(update).toHaveBeenCalledWith(
      'customers',
      expect.objectContaining({ id: C1, data: expect.objectContaining({ aadharId: 'XXXXXXXX1234' }) }),
    );
  });
});

describe('retailer modal typeaheads', () => {
  it('the distributor waits for a master distributor and lists only its distributors', async () => {
    login(UserType.ADMIN);
    const user = userEvent.setup();
    const { provider, getList, create } = fakeData();
    renderList('/retailer/list', <RetailerList />, provider);
    await user.click(await screen.findByRole('button', { name: 'Add Retailer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Retailer' });
    expect(within(dialog).getByRole('combobox', { name: 'Distributor' })).toBeDisabled();
    await user.click(within(dialog).getByRole('combobox', { name: 'Master Distributor' }));
    await user.click(await screen.findByRole('option', { name: 'Narmada Links' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: 'Distributor' })).not.toBeDisabled(),
    );
    await user.click(within(dialog).getByRole('combobox', { name: 'Distributor' }));
    expect(await screen.findByRole('option', { name: 'Ganga Sales' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Dev Agencies' })).not.toBeInTheDocument();
    expect(getList).toHaveBeenCalledWith(
      'distributors',
      expect.objectContaining({ filter: { masterDistributorId: MD2 } }),
    );
    await user.click(screen.getByRole('option', { name: 'Ganga Sales' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(MSG.validationFailed)).toBeInTheDocument();
    expect(create).not.toHaveBeenCalled();
  });
});

describe('employee modal', () => {
  it('asks for the passwords only when creating; a mismatch has its own message', async () => {
    login(UserType.ADMIN);
    TABLES.employees = [{ ...base, id: uuid(20), name: 'esha staff', type: UserType.EMPLOYEE }];
    const user = userEvent.setup();
    const { provider } = fakeData();
    renderList('/employee/list', <EmployeeList />, provider);
    await user.click(await screen.findByRole('button', { name: 'Add Employee' }));
    let dialog = await screen.findByRole('dialog', { name: 'Create New Employee' });
    await user.type(labelledField(dialog, 'Password'), 'weak');
    await user.type(labelledField(dialog, 'Confirm Password'), 'Other@123');
    await user.click(labelledField(dialog, 'Name'));
    expect(await within(dialog).findByText(MSG.passwordPattern)).toBeInTheDocument();
    expect(within(dialog).getByText(MSG.passwordMismatch)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Edit Esha Staff' }));
    dialog = await screen.findByRole('dialog', { name: 'Update Employee' });
    expect(labelledField(dialog, 'Name')).toHaveValue('esha staff');
    expect(within(dialog).queryByText(/^Password/)).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('group', { name: 'Role' })).not.toBeInTheDocument();
  });

  it('an admin asks for another admin: no password, another admin approves; a single admin is said plainly', async () => {
    login(UserType.ADMIN);
    TABLES.employees = [];
    const user = userEvent.setup();
    const { provider, create } = fakeData({ getAdminCount: async () => 1 } as Partial<DataProvider>);
    renderList('/employee/list', <EmployeeList />, provider);
    await user.click(await screen.findByRole('button', { name: 'Add Employee' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Employee' });
    const role = within(dialog).getByRole('group', { name: 'Role' });
    expect(within(role).getByRole('radio', { name: 'Employee' })).toBeChecked();
    expect(labelledField(dialog, 'Password')).toBeInTheDocument();
    await user.click(within(role).getByRole('radio', { name: 'Admin' }));
    // The approving admin receives a one-time password: none is chosen here.
    expect(within(dialog).queryByText(/^Password/)).not.toBeInTheDocument();
    expect(
      within(dialog).getByText(/A new admin is made only when another admin approves/),
    ).toBeInTheDocument();
    const notice = await within(dialog).findByText(/This network has a single admin/);
    expect(notice).toHaveTextContent(
      'npm run admin -- create --userName <u> --name <n> [--email <e>] [--mobile <m>]',
    );
    const field = (label: string) => labelledField(dialog, label);
    await user.type(field('Name'), 'second admin');
    await user.type(field('Email'), 'second.admin@example.in');
    await user.type(field('Mobile'), '9876500001');
    await user.type(field('User Name'), 'admin2');
    await user.click(within(dialog).getByRole('combobox', { name: 'District' }));
    await user.click(await screen.findByRole('option', { name: 'Jaipur' }));
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Tehsil' })).not.toBeDisabled());
    await user.click(within(dialog).getByRole('combobox', { name: 'Tehsil' }));
    await user.click(await screen.findByRole('option', { name: 'Sanganer' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const toast = await screen.findByText((text) => text.startsWith(APPROVAL_MSG.adminCreationPending));
    expect(toast).toHaveTextContent(/This network has a single admin/);
    expect(create).toHaveBeenCalledWith('employees', {
      data: expect.objectContaining({ name: 'second admin', role: String(UserType.ADMIN) }),
    });
  });

  it('Make Admin asks, with a reason, for an active employee to become an admin', async () => {
    login(UserType.ADMIN);
    TABLES.employees = [
      { ...base, id: uuid(21), name: 'esha staff', type: UserType.EMPLOYEE, status: 'ACTIVE' },
      { ...base, id: uuid(22), name: 'ravi former', type: UserType.EMPLOYEE, status: 'INACTIVE' },
    ];
    const promoteToAdmin = vi.fn(async () => ({ pending: uuid(23), message: APPROVAL_MSG.promotionPending }));
    const user = userEvent.setup();
    const { provider } = fakeData({ getAdminCount: async () => 2, promoteToAdmin } as Partial<DataProvider>);
    renderList('/employee/list', <EmployeeList />, provider);
    await user.click(await screen.findByRole('button', { name: 'Make Esha Staff an admin' }));
    expect(screen.queryByRole('button', { name: 'Make Ravi Former an admin' })).not.toBeInTheDocument();
    const dialog = await screen.findByRole('dialog', { name: 'Make Admin' });
    expect(within(dialog).queryByText(/This network has a single admin/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Make Admin' }));
    expect(await within(dialog).findByText(APPROVAL_MSG.reasonRequired)).toBeInTheDocument();
    expect(promoteToAdmin).not.toHaveBeenCalled();
    await user.type(labelledField(dialog, 'Reason'), ' Runs the branch now ');
    await user.click(within(dialog).getByRole('button', { name: 'Make Admin' }));
    expect(await screen.findByText(APPROVAL_MSG.promotionPending)).toBeInTheDocument();
    expect(promoteToAdmin).toHaveBeenCalledWith(uuid(21), 'Runs the branch now');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('without the right to create admins, the dialog has no Role choice', async () => {
    login(UserType.ADMIN);
    const denyAdmins: AuthProvider = {
      ...authProvider,
      canAccess: async (params) =>
        params.resource === 'admins' ? false : ((await authProvider.canAccess?.(params)) ?? false),
    };
    const user = userEvent.setup();
    const { provider } = fakeData();
    const { queryClient } = renderList('/employee/list', <EmployeeList />, provider, denyAdmins);
    await user.click(await screen.findByRole('button', { name: 'Add Employee' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Employee' });
    await waitForSettled(queryClient);
    expect(labelledField(dialog, 'Password')).toBeInTheDocument();
    expect(within(dialog).queryByRole('group', { name: 'Role' })).not.toBeInTheDocument();
  });
});

describe('Update Status', () => {
  it('preselects the toggled status, sends { status } and refetches', async () => {
    login(UserType.ADMIN);
    const user = userEvent.setup();
    const { provider, update, getList } = fakeData();
    renderList('/master/distributor/list', <MasterDistributorList />, provider);
    await user.click(await screen.findByRole('button', { name: 'Update Status of Mahesh Traders' }));
    let dialog = await screen.findByRole('dialog', { name: 'Update Status' });
    expect(within(dialog).getByRole('combobox', { name: 'Status' })).toHaveTextContent('INACTIVE');
    const calls = getList.mock.calls.length;
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText(USER_MSG.statusChanged)).toBeInTheDocument();
    expect(update).toHaveBeenCalledWith('masterDistributors', {
      id: MD1,
      data: { status: 'INACTIVE' },
      previousData: MASTERS[0],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(getList.mock.calls.length).toBeGreaterThan(calls));

    // An inactive user toggles back to ACTIVE; Cancel sends nothing.
    await user.click(screen.getByRole('button', { name: 'Update Status of Narmada Links' }));
    dialog = await screen.findByRole('dialog', { name: 'Update Status' });
    expect(within(dialog).getByRole('combobox', { name: 'Status' })).toHaveTextContent('ACTIVE');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(update).toHaveBeenCalledTimes(1);
  });
});
