import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { UserType } from '../../src/shared/enums';
import { createDataProvider } from '../../src/web/providers/dataProvider';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { AuditList } from '../../src/web/resources/audit/AuditList';
import { jsonResponse, renderInAdmin, wireUser } from './helpers';
import { stubServer } from './salesServer';

const loginAdmin = () => {
  const user = wireUser({ _id: '6c1f0c44-3f5e-4c2b-9d55-1f7b2a0c0e00', type: UserType.ADMIN });
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

/** Ten audit rows of a page, named after it, so a test can see which page is shown. */
const pageRows = (page: number) =>
  Array.from({ length: 10 }, (_, i) => ({
    _id: `a-${page}-${i}`,
    actor: { _id: null, name: `Page ${page} row ${i}`, type: null, kind: 'PUBLIC' },
    action: 'user.login.failed',
    entity: 'user',
    entityId: null,
    before: null,
    after: {},
    ip: '10.0.0.9',
    createdAt: '2026-11-22T05:00:00.000Z',
  }));

/** audit/fetch answering full pages with the given total, capped or exact. */
const auditServer = (totalCounts: number, capped: boolean) =>
  stubServer((request) => {
    if (request.path !== 'audit/fetch') return undefined;
    const page = Number(request.query.get('page'));
    return jsonResponse(200, {
      result: { audit: pageRows(page), totalCounts, ...(capped ? { totalCountsCapped: true } : {}) },
    });
  });

const renderAudit = (path = '/audit/list') =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/audit/list" element={<AuditList />} />
      </Routes>,
      { path, dataProvider: createDataProvider() },
    ),
  );

const pager = () => screen.getByRole('navigation', { name: 'Pagination' });

describe('the list pager', () => {
  it('says which rows are shown out of the exact total, with a Last button', async () => {
    loginAdmin();
    auditServer(57, false);
    renderAudit();
    expect(await screen.findByText('1-10 of 57')).toBeInTheDocument();
    expect(within(pager()).getByRole('button', { name: 'Go to last page' })).toBeInTheDocument();
    expect(within(pager()).getByRole('button', { name: 'Go to page 6' })).toBeInTheDocument();
  });

  it('shows a capped total as 1,000+ and still pages forward past the counted pages', async () => {
    loginAdmin();
    const api = auditServer(1000, true);
    const user = userEvent.setup();
    renderAudit('/audit/list?page=100');
    expect(await screen.findByText('991-1,000 of 1,000+')).toBeInTheDocument();
    expect(screen.getByText('Page 100 row 0 (Public)')).toBeInTheDocument();
    expect(within(pager()).queryByRole('button', { name: 'Go to last page' })).toBeNull();
    await user.click(within(pager()).getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByText('Page 101 row 0 (Public)', {})).toBeInTheDocument();
    expect(screen.getByText('1,001-1,010 of 1,000+')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        api.requests
          .filter((r) => r.path === 'audit/fetch')
          .at(-1)
          ?.query.get('page'),
      ).toBe('101'),
    );
  });
});
