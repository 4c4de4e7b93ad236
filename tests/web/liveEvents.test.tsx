import { QueryClient, useQuery } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserType } from '../../src/shared/enums';
import { LiveEvents } from '../../src/web/layout/LiveEvents';
import { getToken, saveLogin, saveUserDetails } from '../../src/web/providers/session';
import { jsonResponse, renderInAdmin, wireUser } from './helpers';

/**
 * The panel's side of the event stream (issue 55): a fake server's stream, fed by the test one event at a time. Each
 * event makes the queries of what it changed load again, a toast says what changed for the person, and a session
 * ended elsewhere signs the panel out with the session-ended notice.
 */

const RETAILER = wireUser({ _id: 'r-1', name: 'Ganesh Mobile Store', type: UserType.RETAILER });

let send: (text: string) => void;
/** Ends the stream, as a server stopping does. */
let end: () => void;
let requests: { url: string; headers: Headers }[];
const fetch = vi.fn<typeof globalThis.fetch>();

beforeEach(() => {
  localStorage.clear();
  saveLogin('the-token', RETAILER);
  saveUserDetails(RETAILER);
  requests = [];
  fetch.mockReset();
  fetch.mockImplementation(async (input, init) => {
    const url = String(input);
    requests.push({ url, headers: new Headers(init?.headers) });
    if (!url.endsWith('/api/v1/events')) return jsonResponse(200, { result: true });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const encoder = new TextEncoder();
        send = (text) => controller.enqueue(encoder.encode(text));
        end = () => controller.close();
        send(': connected\n\n');
      },
    });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  });
  vi.stubGlobal('fetch', fetch);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** A query of the sales resource on screen: how many times it was loaded. */
const SaleOnScreen = ({ loads }: { loads: () => number }) => {
  const query = useQuery({ queryKey: ['sales', 'getOne', { id: 's-1' }], queryFn: async () => loads() });
  return <p>loaded {query.data ?? 0}</p>;
};

const start = () => {
  let count = 0;
  const queryClient = new QueryClient();
  render(
    renderInAdmin(
      <>
        <LiveEvents />
        <SaleOnScreen loads={() => ++count} />
      </>,
      { queryClient },
    ),
  );
  return { loads: () => count };
};

const streamRequests = () => requests.filter((r) => r.url.endsWith('/api/v1/events'));

describe('LiveEvents', () => {
  it("opens the stream with the session header and, on a sale's confirmation, reloads the sale and toasts the commission", async () => {
    const screenState = start();
    await waitFor(() => expect(streamRequests()).toHaveLength(1));
    expect(streamRequests()[0].headers.get('X-auth-token')).toBe('bearer the-token');
    await screen.findByText('loaded 1');
    send('id: 7\nevent: sale\ndata: {"id":"s-1","status":"CONFIRMED","code":"SBX42","commission":50}\n\n');
    await screen.findByText('Sale SBX42 confirmed: commission ₹50.00');
    await screen.findByText('loaded 2');
    expect(screenState.loads()).toBe(2);
  });

  it('reloads without a toast what a person is not paid on (a sale without its commission)', async () => {
    start();
    await screen.findByText('loaded 1');
    send('id: 8\nevent: sale\ndata: {"id":"s-1","status":"CONFIRMED","code":"SBX43"}\n\n');
    await screen.findByText('loaded 2');
    expect(screen.queryByText(/SBX43/)).not.toBeInTheDocument();
  });

  it('sends a session ended elsewhere to sign in again, with the session-ended notice', async () => {
    start();
    await waitFor(() => expect(streamRequests()).toHaveLength(1));
    send('id: 9\nevent: session-ended\ndata: {}\n\n');
    await screen.findByText('Your session has ended. Please log in again.');
    await waitFor(() => expect(getToken()).toBeNull());
  });

  it('opens the stream again from the last event it received (Last-Event-ID) once it drops', async () => {
    start();
    await waitFor(() => expect(streamRequests()).toHaveLength(1));
    send('id: 11\nevent: lead\ndata: {"id":"l-1","status":"APPROVED"}\n\n');
    await screen.findByText('loaded 1');
    end();
    await waitFor(() => expect(streamRequests()).toHaveLength(2), { timeout: 5_000 });
    expect(streamRequests()[1].headers.get('Last-Event-ID')).toBe('11');
  });
});
