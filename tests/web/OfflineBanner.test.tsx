import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../src/web/App';
import { hi } from '../../src/web/i18n/hi';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { jsonResponse, wireUser } from './helpers';

const OFFLINE = 'You are offline. What needs the server will load again when the connection is back.';

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

/** A signed-in admin. */
const signedIn = () => {
  const user = wireUser();
  localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
  localStorage.setItem(SESSION_KEYS.userData, JSON.stringify({ user }));
  localStorage.setItem(SESSION_KEYS.userDetails, JSON.stringify(user));
};

/** A server that answers (`answers`), or a network that reaches nothing (fetch fails, as the browser's does). */
const network = (answers: boolean) =>
  vi.stubGlobal(
    'fetch',
    vi.fn().mockImplementation(async (url: string) => {
      if (!answers) throw new TypeError('Failed to fetch');
      if (url.endsWith('/report/userCounts')) return jsonResponse(200, { result: { userReport: [counts] } });
      if (url.endsWith('/partner/mode')) return jsonResponse(200, { result: { providerMode: 'http' } });
      return jsonResponse(200, { result: {} });
    }),
  );

const browserOnline = (online: boolean) => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
};

const retailersShown = () =>
  waitFor(() => expect(screen.getByRole('listitem', { name: 'Retailers' })).toHaveTextContent('9'));

const visit = (path: string) => {
  window.history.replaceState({}, '', path);
  return render(<App />);
};

describe('the offline banner', () => {
  it('says the panel is offline while the browser has no network, above the screen, and goes when it is back', async () => {
    signedIn();
    network(true);
    visit('/home');
    await retailersShown();
    expect(screen.queryByText(OFFLINE)).not.toBeInTheDocument();

    browserOnline(false);
    const banner = await screen.findByRole('status');
    expect(banner).toHaveTextContent(OFFLINE);
    const tile = screen.getByRole('listitem', { name: 'Retailers' });
    expect(banner.compareDocumentPosition(tile) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    browserOnline(true);
    expect(screen.queryByText(OFFLINE)).not.toBeInTheDocument();
  });

  it('says so when requests get no answer though the browser thinks it is online, until one is answered', async () => {
    signedIn();
    network(false);
    visit('/home');
    expect(await screen.findByRole('status')).toHaveTextContent(OFFLINE);
    // The screen's own error state stays what it was: a failed figure with Retry.
    const retry = (await screen.findAllByRole('button', { name: 'Retry' }))[0];

    network(true);
    await userEvent.click(retry);
    await retailersShown();
    expect(screen.queryByText(OFFLINE)).not.toBeInTheDocument();
  });

  it('goes as soon as the browser is back online, and the figures that failed offline load again by themselves', async () => {
    signedIn();
    network(false);
    browserOnline(false);
    visit('/home');
    expect(await screen.findByRole('status')).toHaveTextContent(OFFLINE);
    // The requests went out and got no answer: the screen's own error state.
    await screen.findByText('Could not load the user counts.');

    network(true);
    browserOnline(true);
    expect(screen.queryByText(OFFLINE)).not.toBeInTheDocument();
    // Nobody pressed Retry.
    await retailersShown();
    expect(screen.queryByText('Could not load the user counts.')).not.toBeInTheDocument();
  });

  it('goes with the first answer after requests went unanswered, and the other failed figures load again by themselves', async () => {
    signedIn();
    network(false);
    visit('/home');
    expect(await screen.findByRole('status')).toHaveTextContent(OFFLINE);
    await screen.findByText('Could not load the user counts.');
    const commissionsFailed = await screen.findByText('Could not load the commissions.');

    // The server answers again: Retry on the commissions only.
    network(true);
    const alert = commissionsFailed.closest('[role="alert"]') as HTMLElement;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByText(OFFLINE)).not.toBeInTheDocument());
    // The user counts, which nobody retried.
    await retailersShown();
    expect(screen.queryByText('Could not load the user counts.')).not.toBeInTheDocument();
  });

  it("keeps no save to send later: offline, Create fails with the seed's text, and nothing goes when the connection is back", async () => {
    signedIn();
    let answers = true;
    const sent: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn().mockImplementation(async (url: string, init?: RequestInit) => {
        sent.push(`${init?.method ?? 'GET'} ${url.replace(/\?.*/, '')}`);
        if (!answers) throw new TypeError('Failed to fetch');
        if (url.includes('/state/fetch'))
          return jsonResponse(200, {
            result: {
              state: [{ _id: 's-1', name: 'goa', createdAt: '2026-11-21T12:00:00.000Z' }],
              totalCounts: 1,
            },
          });
        return jsonResponse(200, { result: {} });
      }),
    );
    visit('/location/state/list');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add State' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New State' });
    await user.type(within(dialog).getByLabelText(/Name/), 'kerala');

    answers = false;
    browserOnline(false);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    // Found is the check: the toast may be drawn again (a second failed call) before another look would see it.
    await screen.findByText('Internet connection error');
    expect(sent.filter((call) => call.startsWith('POST'))).toEqual(['POST /api/v1/state/create']);
    expect(within(dialog).getByLabelText(/Name/)).toHaveValue('kerala');

    answers = true;
    const before = sent.length;
    browserOnline(true);
    // The list is asked again once the connection is back; the failed Create is not sent again.
    await waitFor(() => expect(sent.slice(before)).toContain('GET /api/v1/state/fetch'));
    expect(sent.filter((call) => call.startsWith('POST'))).toEqual(['POST /api/v1/state/create']);
  });

  it('shows on the sign-in page too', async () => {
    network(true);
    browserOnline(false);
    visit('/auth');
    expect(await screen.findByRole('status')).toHaveTextContent(OFFLINE);
  });

  // Last: the chosen language outlives the test in the panel's i18n provider.
  it('is in Hindi for a Hindi reader', async () => {
    localStorage.setItem('RaStore.locale', '"hi"');
    signedIn();
    network(true);
    browserOnline(false);
    visit('/home');
    expect(await screen.findByRole('status')).toHaveTextContent(hi.app.offline.banner);
    expect(hi.app.offline.banner).not.toBe(OFFLINE);
  });
});
