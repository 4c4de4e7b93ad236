import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { AUDIT_MSG } from '../../src/shared/constants/audit';
import { UserType } from '../../src/shared/enums';
import { MSG } from '../../src/shared/messages';
import { can } from '../../src/shared/roles';
import type { WireAuditEntry } from '../../src/shared/wire';
import { hi } from '../../src/web/i18n/hi';
import { MENU_ENTRIES } from '../../src/web/layout/Menu';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { AuditList } from '../../src/web/resources/audit/AuditList';
import { changesText } from '../../src/web/resources/audit/changes';
import { cellTexts, jsonResponse, renderInAdmin, wireUser } from './helpers';
import { stubServer } from './salesServer';

const EMPLOYEE_ID = '6c1f0c44-3f5e-4c2b-9d55-1f7b2a0c0e01';

const login = (type: UserType) => {
  const user = wireUser({ _id: '6c1f0c44-3f5e-4c2b-9d55-1f7b2a0c0e00', type });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

const ENTRIES: WireAuditEntry[] = [
  {
    _id: 'a1',
    actor: { _id: EMPLOYEE_ID, name: 'Anita Sharma', type: UserType.EMPLOYEE, kind: 'USER' },
    action: 'user.update',
    entity: 'user',
    entityId: 'u-1',
    before: { email: 'ra***@example.com', aadharHash: '[not recorded]' },
    after: { email: 'si***@example.org', aadharHash: '[not recorded]' },
    ip: '10.0.0.7',
    createdAt: '2026-11-22T06:30:00.000Z',
  },
  {
    _id: 'a2',
    actor: { _id: null, name: 'Partner', type: null, kind: 'PARTNER' },
    action: 'provider.event',
    entity: 'sale',
    entityId: 's-1',
    before: { status: 'PENDING' },
    after: { status: 'CONFIRMED' },
    ip: '127.0.0.1',
    createdAt: '2026-11-22T06:00:00.000Z',
  },
  {
    _id: 'a3',
    actor: { _id: null, name: '93XXXXXX02', type: null, kind: 'PUBLIC' },
    action: 'user.login.failed',
    entity: 'user',
    entityId: null,
    before: null,
    after: { userName: '93XXXXXX02' },
    ip: '10.0.0.9',
    createdAt: '2026-11-22T05:00:00.000Z',
  },
];

const auditServer = (entries = ENTRIES) =>
  stubServer(
    (request) =>
      request.path === 'audit/fetch'
        ? jsonResponse(200, { result: { audit: entries, totalCounts: 23 } })
        : undefined,
    (request) => {
      if (request.path !== 'account/fetch') return undefined;
      const users =
        request.query.get('type') === '5'
          ? [wireUser({ _id: EMPLOYEE_ID, name: 'anita sharma', type: UserType.EMPLOYEE })]
          : [];
      return jsonResponse(200, { result: { users, totalCounts: users.length } });
    },
  );

const fetches = (api: ReturnType<typeof stubServer>) =>
  api.requests.filter((r) => r.path === 'audit/fetch').map((r) => Object.fromEntries(r.query));

const renderAudit = (path = '/audit/list', locale?: 'en' | 'hi') =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/audit/list" element={<AuditList />} />
      </Routes>,
      { path, dataProvider: createDataProvider(), locale },
    ),
  );

/** The list's address with a filter, as a bookmark keeps it (react-admin's JSON in the query string). */
const bookmarked = (filter: Record<string, string>) =>
  `/audit/list?${new URLSearchParams({ filter: JSON.stringify(filter) })}`;

describe('Audit trail (ADMIN)', () => {
  it('is ADMIN’s screen alone, in the menu after Leads', () => {
    const keys = MENU_ENTRIES.map((e) => e.key);
    expect(keys.indexOf('audit')).toBe(keys.indexOf('leads') + 1);
    expect(MENU_ENTRIES.find((e) => e.key === 'audit')?.to).toBe('/audit/list');
    expect(can(UserType.ADMIN, 'audit', 'list')).toBe(true);
    for (const type of [UserType.EMPLOYEE, UserType.MASTER_DISTRIBUTOR, UserType.RETAILER])
      expect(can(type, 'audit', 'list')).toBe(false);
  });

  it('lists time, actor, action, entity, id, the changes before → after and the address, newest first', async () => {
    login(UserType.ADMIN);
    const api = auditServer();
    renderAudit();
    const row = (await screen.findByText('Anita Sharma (Employee)', {})).closest('tr') as HTMLElement;
    expect(screen.getByRole('heading', { level: 1, name: 'Audit Trail' })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((c) => c.textContent)).toEqual([
      'Time',
      'Actor',
      'Action',
      'Entity',
      'Entity Id',
      'Details',
      'Address',
    ]);
    const cells = cellTexts(row);
    expect(cells.slice(1)).toEqual([
      'Anita Sharma (Employee)',
      'user.update',
      'user',
      'u-1',
      "Changed the user's details. Email: ra***@example.com → si***@example.org; Aadhar Number: Not recorded → Not recorded",
      '10.0.0.7',
    ]);
    expect(cells[0]).toMatch(/^Nov 22, 2026/);
    expect(screen.getByText('Partner (Partner)')).toBeInTheDocument();
    expect(screen.getByText('A sign-in as 93XXXXXX02 failed.')).toBeInTheDocument();
    expect(screen.getByText('The partner moved the sale from PENDING to CONFIRMED.')).toBeInTheDocument();
    expect(fetches(api)[0]).toEqual({ page: '1', limit: '10' });
  });

  it('sends the user, entity, action and dates to audit/fetch', async () => {
    login(UserType.ADMIN);
    const api = auditServer();
    const user = userEvent.setup();
    renderAudit();
    await screen.findByText('Anita Sharma (Employee)', {});
    const pick = async (name: string, option: string) => {
      await user.click(screen.getByRole('combobox', { name }));
      await user.click(await screen.findByRole('option', { name: option }));
    };
    await pick('Entity', 'sale');
    await waitFor(() => expect(fetches(api).at(-1)).toMatchObject({ entity: 'sale' }));
    await pick('Action', 'provider.event');
    await waitFor(() => expect(fetches(api).at(-1)).toMatchObject({ action: 'provider.event' }));
    await pick('User Type', 'Employee');
    await pick('User', 'Anita Sharma');
    await waitFor(() => expect(fetches(api).at(-1)).toMatchObject({ userId: EMPLOYEE_ID }));
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await waitFor(() => expect(fetches(api).at(-1)).toMatchObject({ from: '2026-11-01' }));
  });

  it('marks a date out of range, or From later than To, on its field and keeps the list (issue 41)', async () => {
    login(UserType.ADMIN);
    const api = auditServer();
    const user = userEvent.setup();
    renderAudit();
    await screen.findByText('Anita Sharma (Employee)', {});
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    const sent = () => fetches(api).length;
    const before = sent();

    await user.type(from, '1999-12-31');
    await waitFor(() => expect(from).toHaveAccessibleDescription(AUDIT_MSG.dateOutOfRange));
    expect(from).toHaveAttribute('aria-invalid', 'true');

    await user.clear(from);
    await user.type(from, '2026-11-05');
    await waitFor(() => expect(fetches(api).at(-1)).toMatchObject({ from: '2026-11-05' }));
    await user.type(to, '2026-11-01');
    await waitFor(() => expect(to).toHaveAccessibleDescription(AUDIT_MSG.fromAfterTo));
    // Moving From back before To clears both fields, and the pair goes out.
    await user.clear(from);
    await user.type(from, '2026-10-30');
    await waitFor(() => expect(fetches(api).at(-1)).toMatchObject({ from: '2026-10-30', to: '2026-11-01' }));
    expect(to).not.toHaveAttribute('aria-invalid', 'true');
    expect(from).not.toHaveAttribute('aria-invalid', 'true');

    // No request ever carried a refused date, and the rows stayed on screen throughout.
    expect(
      fetches(api)
        .slice(before)
        .some((q) => q.from === '1999-12-31' || (q.to === '2026-11-01' && q.from === '2026-11-05')),
    ).toBe(false);
    expect(screen.getByText('Anita Sharma (Employee)')).toBeInTheDocument();
    expect(screen.queryByText('The list could not be loaded.')).toBeNull();
  });

  it('marks a bad date from a bookmarked address on its field, and lists without it (issue 53)', async () => {
    login(UserType.ADMIN);
    const api = auditServer();
    renderAudit(bookmarked({ from: '1999-12-31', entity: 'sale' }));
    await screen.findByText('Anita Sharma (Employee)', {});
    const from = screen.getByLabelText('From');
    await waitFor(() => expect(from).toHaveAccessibleDescription(AUDIT_MSG.dateOutOfRange));
    expect(from).toHaveAttribute('aria-invalid', 'true');
    // The list loaded with the filters it accepts, never with the refused date.
    expect(fetches(api).length).toBeGreaterThan(0);
    for (const query of fetches(api)) expect(query).not.toHaveProperty('from');
    expect(fetches(api).at(-1)).toMatchObject({ entity: 'sale' });
    expect(screen.queryByText('The list could not be loaded.')).not.toBeInTheDocument();
  });

  it('marks a bookmarked From later than To in Hindi', async () => {
    login(UserType.ADMIN);
    const api = auditServer();
    renderAudit(bookmarked({ from: '2026-11-20', to: '2026-11-01' }), 'hi');
    await screen.findByText(/Anita Sharma/, {});
    const from = screen.getByLabelText(hi.resources.audit.fields.from);
    await waitFor(() => expect(from).toHaveAccessibleDescription(hi.app.shared.audit.fromAfterTo));
    for (const query of fetches(api)) expect(query).not.toHaveProperty('from');
  });

  it('shows the seed’s empty state when nothing matches', async () => {
    login(UserType.ADMIN);
    auditServer([]);
    renderAudit();
    expect(await screen.findByText(MSG.noData)).toBeInTheDocument();
  });

  it('writes a compact change text: created fields alone, changed fields before → after', () => {
    expect(changesText({ before: null, after: { name: 'Goa' } })).toBe('name: Goa');
    expect(changesText({ before: { status: 'NEW' }, after: { status: 'APPROVED' } })).toBe(
      'status: NEW → APPROVED',
    );
    expect(changesText({ before: null, after: null })).toBe('');
  });
});
