import type { QueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import {
  AdminContext,
  type AuthProvider,
  type DataProvider,
  memoryStore,
  testDataProvider,
} from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import type { WireCommand, WireUser } from '../../src/shared/wire';
import { i18nProvider } from '../../src/web/i18n/i18n';
import { AppNotification } from '../../src/web/layout/AppNotification';
import { authProvider as realAuthProvider } from '../../src/web/providers/authProvider';

export const jsonResponse = (status: number, body: unknown, statusText = '') =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });

export const wireUser = (overrides: Partial<WireUser> = {}): WireUser => ({
  _id: 'u-1',
  name: 'Asha Admin',
  email: { address: 'asha@example.com' },
  mobile: { number: '9000000001' },
  userName: { id: '9000000001' },
  type: 0,
  status: 'ACTIVE',
  districtId: null,
  tehsilId: null,
  district: [],
  tehsil: [],
  wallet: { balance: 0, clearingBalance: 0 },
  passwordUpdatedAt: '2024-01-01T00:00:00.000Z',
  createdAt: '2024-01-01T00:00:00.000Z',
  ...overrides,
});

/** A pending command (by default a payout an employee made, waiting for a checker), as approvals/fetch lists it. */
export const wireCommand = (overrides: Partial<WireCommand> = {}): WireCommand => ({
  _id: '77777777-7777-4777-8777-777777777777',
  kind: 'PAYOUT',
  status: 'PENDING',
  user: { _id: '99999999-9999-4999-8999-999999999999', name: 'rita retailer', type: UserType.RETAILER },
  amount: 25000,
  reference: 'UTR-4411',
  note: null,
  reason: null,
  details: null,
  maker: { _id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', name: 'esha employee' },
  checker: null,
  rejectionReason: null,
  postingId: null,
  createdAt: '2026-11-26T05:30:00.000Z',
  decidedAt: null,
  ...overrides,
});

/**
 * Renders inside react-admin's AdminContext (fresh memoryStore) + a memory router + the global toasts and loading
 * bar. Pass a `queryClient` to wait for it with `waitForSettled`; without one react-admin makes its own. `locale`
 * 'hi' starts in Hindi, as a choice remembered in the store does.
 */
export const renderInAdmin = (
  ui: ReactNode,
  {
    path = '/',
    dataProvider = testDataProvider(),
    authProvider = realAuthProvider,
    queryClient,
    locale,
  }: {
    path?: string;
    dataProvider?: DataProvider;
    authProvider?: AuthProvider;
    queryClient?: QueryClient;
    locale?: 'en' | 'hi';
  } = {},
) => (
  <MemoryRouter initialEntries={[path]}>
    <AdminContext
      store={memoryStore(locale ? { locale } : undefined)}
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      queryClient={queryClient}
    >
      {ui}
      <AppNotification />
    </AdminContext>
  </MemoryRouter>
);

/**
 * Waits until the page has settled as a user sees it: no query or mutation in flight (react-admin's permission
 * checks are queries too) and the loading bar gone. Only then does an absent button prove the role lacks it; and
 * the answers land while Testing Library is watching, not after the test has moved on (an act(...) warning).
 */
export const waitForSettled = (queryClient: QueryClient) =>
  waitFor(() => {
    expect(queryClient.isFetching() + queryClient.isMutating()).toBe(0);
    expect(screen.queryByRole('progressbar', { name: 'Loading' })).not.toBeInTheDocument();
  });

/**
 * The form field that the label with exactly this text names, inside `scope`: the label a user reads (with or
 * without react-admin's required mark ' *'), then the field it is the label of (label.control), so a label that names
 * no field fails. Same answer as Testing Library's getByLabelText, but that one resolves the labels of every field in
 * scope, and jsdom finds each label's field by walking the whole page: 30-130 ms a lookup on the onboarding form,
 * about 1 ms this way.
 */
export const labelledField = (scope: HTMLElement, text: string): HTMLElement => {
  const labels = [...scope.querySelectorAll('label')].filter((label) => {
    const shown = (label.textContent ?? '').replace(/\s+/g, ' ').trim();
    return shown === text || shown === `${text} *`;
  });
  if (labels.length !== 1) throw new Error(`expected one label "${text}" here, found ${labels.length}`);
  const field = labels[0].control;
  if (!field) throw new Error(`the label "${text}" names no field`);
  return field;
};

/** The text of each cell of a table row. */
export const cellTexts = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

/** The text of each cell of each row in `scope` but the first (the header row). */
export const bodyRows = (scope: HTMLElement) => within(scope).getAllByRole('row').slice(1).map(cellTexts);

/** The names of the files the panel saves from now on (the link it clicks; jsdom cannot follow it). */
export const savedFiles = () => {
  URL.createObjectURL = vi.fn(() => 'blob:file');
  URL.revokeObjectURL = vi.fn();
  const saved: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  return saved;
};

/**
 * A window `width` px wide, as media queries see it (MUI's breakpoints: `(max-width:599.95px)`, `(min-width:600px)`):
 * a query matches when every width bound in it holds. Restored after the test (setup.ts restores all mocks).
 */
export const atWidth = (width: number) =>
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => {
    const bounds = [...query.matchAll(/\((min|max)-width:\s*([\d.]+)px\)/g)];
    return {
      matches:
        bounds.length > 0 &&
        bounds.every(([, side, px]) => (side === 'min' ? width >= Number(px) : width <= Number(px))),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    } as MediaQueryList;
  });
