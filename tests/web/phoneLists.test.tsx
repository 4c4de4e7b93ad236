import { QueryClient } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import type { DataProvider, RaRecord } from 'react-admin';
import { testDataProvider } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { ApprovalList } from '../../src/web/resources/approvals/ApprovalList';
import { CustomerList } from '../../src/web/resources/customers/CustomerList';
import { RetailerList } from '../../src/web/resources/retailers/RetailerList';
import { atWidth, renderInAdmin, waitForSettled, wireUser } from './helpers';

/** Issue 53: the lists at a phone's width (360 px) and on a laptop. */

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const login = (type: UserType) => {
  const user = wireUser({ type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const RETAILERS = [
  {
    id: uuid(1),
    name: 'shiv store',
    mobile: '9812345678',
    email: 'shiv@example.in',
    status: 'ACTIVE',
    distributor: { id: uuid(9), name: 'dev agencies' },
    district: { id: uuid(8), name: 'jaipur' },
    tehsil: { id: uuid(7), name: 'sanganer' },
    balance: 1250.5,
    clearingBalance: 30,
    createdAt: '2026-11-21T12:00:00.000Z',
  },
];

const provider = (rows: Record<string, RaRecord[]>): DataProvider =>
  testDataProvider({
    getList: async (resource: string) => ({
      data: rows[resource] ?? [],
      total: (rows[resource] ?? []).length,
    }),
    getMany: async () => ({ data: [] }),
  } as never);

const renderList = async (path: string, element: React.ReactNode, rows: Record<string, RaRecord[]>) => {
  const queryClient = new QueryClient();
  render(
    renderInAdmin(
      <Routes>
        <Route path={path} element={element} />
      </Routes>,
      { path, dataProvider: provider(rows), queryClient },
    ),
  );
  await waitForSettled(queryClient);
};

describe('lists at 360 px', () => {
  it("a distributor's retailers are cards with their balances, no table to scroll sideways", async () => {
    atWidth(360);
    login(UserType.DISTRIBUTOR);
    await renderList('/retailer/list', <RetailerList />, { retailers: RETAILERS });
    const cards = await screen.findByRole('list', { name: 'Retailers' });
    const [card] = within(cards).getAllByRole('listitem');
    const pairs = [...card.querySelectorAll('dt')].map((dt) => [
      dt.textContent,
      dt.nextElementSibling?.textContent,
    ]);
    expect(pairs).toEqual([
      ['Name', 'Shiv Store'],
      ['Mobile', '9812345678'],
      ['Distributor', 'Dev Agencies'],
      ['Clearing Balance', '₹30.00'],
      ['Balance', '₹1,250.50'],
      ['Status', 'ACTIVE'],
    ]);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("an admin's customer card carries its row actions; Export and Export for import are two icons with two names", async () => {
    atWidth(360);
    login(UserType.ADMIN);
    await renderList('/customer/list', <CustomerList />, {
      customers: [
        { ...RETAILERS[0], id: uuid(2), name: 'ravi kumar', retailer: { id: uuid(1), name: 'shiv store' } },
      ],
    });
    const [card] = within(await screen.findByRole('list', { name: 'Customers' })).getAllByRole('listitem');
    for (const name of ['Select Product for Ravi Kumar', 'Update Status of Ravi Kumar', 'Edit Ravi Kumar'])
      expect(within(card).getByRole('button', { name })).toBeInTheDocument();
    expect(within(card).getByText('Retailer').nextElementSibling).toHaveTextContent('Shiv Store');
    const exportIcon = screen.getByRole('button', { name: 'Export' }).querySelector('svg');
    const importIcon = screen.getByRole('button', { name: 'Export for import' }).querySelector('svg');
    expect(exportIcon?.dataset.testid).not.toBe(importIcon?.dataset.testid);
  });

  it("an employee's empty Approvals: No Data Found, and the disabled Export icon still has its name", async () => {
    atWidth(360);
    login(UserType.EMPLOYEE);
    await renderList('/approvals/list', <ApprovalList />, {});
    expect(await screen.findByText('No Data Found')).toBeInTheDocument();
    const exportButton = screen.getByRole('button', { name: 'Export' });
    expect(exportButton).toBeDisabled();
    expect(screen.queryByRole('list', { name: 'Approvals' })).not.toBeInTheDocument();
  });
});

describe('lists on a laptop', () => {
  it('the table sits in a region named by the list that Tab reaches, with no pinned column', async () => {
    atWidth(1366);
    login(UserType.ADMIN);
    await renderList('/retailer/list', <RetailerList />, { retailers: RETAILERS });
    const region = await screen.findByRole('region', { name: 'Retailers' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(within(region).getByRole('table')).toBeInTheDocument();
    // The header row stays on top as the page scrolls down; no cell is pinned sideways over the others.
    const [, row] = within(region).getAllByRole('row');
    for (const cell of within(row).getAllByRole('cell'))
      expect(getComputedStyle(cell).position).not.toBe('sticky');
    expect(within(row).getByRole('button', { name: 'Statements of Shiv Store' })).toBeInTheDocument();
  });
});
