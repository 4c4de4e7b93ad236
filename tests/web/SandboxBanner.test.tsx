import { render, screen, waitFor } from '@testing-library/react';
import { App } from '../../src/web/App';
import { hi } from '../../src/web/i18n/hi';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { jsonResponse, wireUser } from './helpers';

const BANNER = 'Sandbox partner: sales are simulated, no real accounts are opened.';

const counts = {
  ACTIVE_DISTRIBUTORS: 1,
  ACTIVE_EMPLOYEES: 2,
  ACTIVE_MASTER_DISTRIBUTORS: 3,
  ACTIVE_RETAILERS: 4,
  CUSTOMER: 5,
  DISTRIBUTOR: 6,
  EMPLOYEE: 7,
  MASTER_DISTRIBUTOR: 8,
  RETAILER: 9,
};

/** A signed-in admin, and a server whose partner is `mode`. */
const serve = (mode: 'sandbox' | 'http') => {
  const user = wireUser();
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
  const fetchMock = vi.fn().mockImplementation(async (url: string) => {
    if (url.endsWith('/partner/mode')) return jsonResponse(200, { result: { providerMode: mode } });
    if (url.endsWith('/report/userCounts')) return jsonResponse(200, { result: { userReport: [counts] } });
    if (url.includes('/state/fetch')) return jsonResponse(200, { result: { states: [], totalCounts: 0 } });
    return jsonResponse(200, { result: {} });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
};

const visit = (path: string) => {
  window.history.replaceState({}, '', path);
  return render(<App />);
};

describe('the sandbox banner', () => {
  it('shows on every screen while the server’s partner is the sandbox, as a status above the content', async () => {
    const fetchMock = serve('sandbox');
    const view = visit('/home');
    const banner = await screen.findByRole('status');
    expect(banner).toHaveTextContent(BANNER);
    // In the page's flow, before the screen's own content, not over it.
    await waitFor(() => expect(screen.getByRole('listitem', { name: 'Retailers' })).toHaveTextContent('9'));
    const tile = screen.getByRole('listitem', { name: 'Retailers' });
    expect(banner.compareDocumentPosition(tile) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(getComputedStyle(banner).position).not.toMatch(/fixed|absolute|sticky/);
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/v1/partner/mode');
    view.unmount();

    // Another screen shows it too.
    visit('/state/list');
    expect(await screen.findByText(BANNER)).toBeInTheDocument();
  });

  it('is absent when the server talks to the real partner (http)', async () => {
    const fetchMock = serve('http');
    visit('/home');
    await waitFor(() => expect(screen.getByRole('listitem', { name: 'Retailers' })).toHaveTextContent('9'));
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/v1/partner/mode'),
    );
    // The mode's answer has been applied once nothing is in flight any more.
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
    expect(screen.queryByText(BANNER)).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  // Last: the chosen language outlives the test in the panel's i18n provider.
  it('is in Hindi for a Hindi reader', async () => {
    localStorage.setItem('RaStore.locale', '"hi"');
    serve('sandbox');
    visit('/home');
    expect(await screen.findByRole('status')).toHaveTextContent(hi.app.sandbox.banner);
    expect(hi.app.sandbox.banner).not.toBe(BANNER);
  });
});
