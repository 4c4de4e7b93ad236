import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { testDataProvider } from 'react-admin';
import { UserType } from '../../src/shared/enums';
import type { ProductSales, TopRetailer, TrendDay } from '../../src/shared/schemas/reports';
import DashboardCharts from '../../src/web/pages/charts/DashboardCharts';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { bodyRows, renderInAdmin, wireUser } from './helpers';

// MUI X Charts sizes itself to its container, through ResizeObserver, which jsdom lacks.
class SizeWatcher {
  observe() {}
  unobserve() {}
  disconnect() {}
}
beforeAll(() => {
  globalThis.ResizeObserver ??= SizeWatcher as unknown as typeof ResizeObserver;
});

const login = (type: UserType) => {
  const user = wireUser({ type, passwordUpdatedAt: '2024-01-01T00:00:00.000Z' });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

/** 60 days ending 28 November 2026, quiet but for the last day and the day 30 days before it. */
const DAYS: TrendDay[] = Array.from({ length: 60 }, (_, n) => ({
  day: new Date(Date.UTC(2026, 10, 28) - (59 - n) * 86_400_000).toISOString().slice(0, 10),
  commission: n === 59 ? 1234.5 : n === 29 ? 100 : 0,
  sales: n === 59 ? 12 : 0,
  confirmed: n === 59 ? 9 : 0,
  failed: n === 59 ? 2 : 0,
}));
const PRODUCTS: ProductSales[] = [{ _id: 'p1', name: 'Saving Account', sales: 12, confirmed: 9, failed: 2 }];
const TOP: TopRetailer[] = [
  { _id: 'r1', name: 'Ganesh Mobile Store', commission: 1500 },
  { _id: 'r2', name: 'Laxmi Traders', commission: 250.25 },
];

const renderCharts = (locale?: 'hi') => {
  const calls = {
    getTrends: vi.fn().mockResolvedValue(DAYS),
    getProductSales: vi.fn().mockResolvedValue(PRODUCTS),
    getTopRetailers: vi.fn().mockResolvedValue(TOP),
  };
  render(renderInAdmin(<DashboardCharts />, { dataProvider: testDataProvider(calls as never), locale }));
  return calls;
};

const showTable = async (title: string, table = 'Table') => {
  const card = await screen.findByRole('region', { name: title });
  await userEvent.click(within(card).getByRole('button', { name: table }));
  return within(card).findByRole('table', { name: title });
};

describe('the dashboard’s charts', () => {
  it('asks the last 60 days, this month’s products and top 10, and shows each chart’s figures as a table', async () => {
    login(UserType.ADMIN);
    const calls = renderCharts();
    expect(calls.getTrends).toHaveBeenCalledWith(60);
    const commission = await showTable('Commission per day');
    const rows = bodyRows(commission);
    // The last 30 days, each beside the day 30 days before it.
    expect(rows).toHaveLength(30);
    expect(rows[29]).toEqual(['Nov 28, 2026', '₹1,234.50', 'Oct 29, 2026', '₹100.00']);
    expect(bodyRows(await showTable('Sales per day by status'))[29]).toEqual([
      'Nov 28, 2026',
      '12',
      '9',
      '2',
    ]);
    expect(bodyRows(await showTable('Sales by product this month'))).toEqual([
      ['Saving Account', '12', '9', '2'],
    ]);
    expect(bodyRows(await showTable('Top 10 retailers by commission this month'))).toEqual([
      ['1', 'Ganesh Mobile Store', '₹1,500.00'],
      ['2', 'Laxmi Traders', '₹250.25'],
    ]);
    const month = calls.getProductSales.mock.calls[0][0];
    expect(month).toMatch(/^\d{4}-\d{2}$/);
    expect(calls.getTopRetailers).toHaveBeenCalledWith(month, 10);
  });

  it('draws no top retailers for a retailer, and never asks for them', async () => {
    login(UserType.RETAILER);
    const calls = renderCharts();
    expect(await screen.findByRole('region', { name: 'Sales by product this month' })).toBeInTheDocument();
    expect(
      screen.queryByRole('region', { name: 'Top 10 retailers by commission this month' }),
    ).not.toBeInTheDocument();
    expect(calls.getTopRetailers).not.toHaveBeenCalled();
  });

  it('reads in Hindi: titles, headers and days', async () => {
    login(UserType.DISTRIBUTOR);
    renderCharts('hi');
    const table = await showTable('प्रतिदिन कमीशन', 'तालिका');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['दिन', 'कमीशन', '30 दिन पहले का दिन', '30 दिन पहले का कमीशन']);
    expect(bodyRows(table)[29]).toEqual(['28 नव॰ 2026', '₹1,234.50', '29 अक्टू॰ 2026', '₹100.00']);
  });
});
