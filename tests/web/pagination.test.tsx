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

const renderAudit = (path = '/audit/list', locale?: 'hi') =>
  render(
    renderInAdmin(
      <Routes>
        <Route path="/audit/list" element={<AuditList />} />
      </Routes>,
      { path, dataProvider: createDataProvider(), locale },
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

  it("names the pager's buttons in the chosen language: Hindi's, not MUI's English (issue 44)", async () => {
    loginAdmin();
    auditServer(57, false);
    renderAudit('/audit/list', 'hi');
    expect(await screen.findByText('57 में से 1-10')).toBeInTheDocument();
    const nav = within(screen.getByRole('navigation', { name: 'पृष्ठ क्रमांकन' }));
    for (const name of ['पहले पृष्ठ पर जाएँ', 'अगले पृष्ठ पर जाएँ', 'अंतिम पृष्ठ पर जाएँ', 'पृष्ठ 6 पर जाएँ', 'पृष्ठ 1'])
      expect(nav.getByRole('button', { name })).toBeInTheDocument();
    expect(nav.queryByRole('button', { name: /Go to/ })).toBeNull();
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

describe('Export', () => {
  const CUT =
    "The export holds the list's first 1,000 rows, in its order. Search or filter the list to export the rest.";

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

  it('exports a list of up to 1,000 rows whole, without a word', async () => {
    loginAdmin();
    auditServer(57, false);
    const user = userEvent.setup();
    renderAudit();
    await screen.findByText('1-10 of 57');
    expect(await exported(user)).toContain('Page 1 row 0');
    expect(screen.queryByText(CUT)).toBeNull();
  });

  it.each([
    ['more than 1,000 rows', 5000, false, '1-10 of 5,000'],
    ['a total counted only up to the cap', 1000, true, '1-10 of 1,000+'],
  ])('says the file holds the first 1,000 rows when the list has %s', async (_, total, capped, range) => {
    loginAdmin();
    const api = auditServer(total, capped);
    const user = userEvent.setup();
    renderAudit();
    await screen.findByText(range);
    expect(await exported(user)).toContain('Page 1 row 0');
    expect(await screen.findByText(CUT)).toBeInTheDocument();
    // Read in the server's pages of 100, never a page past its limit.
    const limits = api.requests.filter((r) => r.path === 'audit/fetch').map((r) => r.query.get('limit'));
    expect(limits).toContain('100');
    expect(limits.every((limit) => Number(limit) <= 100)).toBe(true);
  });
});
