import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { type EventSourceMessage, EventSourceParserStream } from 'eventsource-parser/stream';
import { useEffect, useRef } from 'react';
import { useLogoutIfAccessDenied, useNotify } from 'react-admin';
import { UserType } from '../../shared/enums';
import type { LiveEventData, LiveEventKind } from '../../shared/schemas/events';
import { useEnumText } from '../i18n/enums';
import { useFormat } from '../i18n/format';
import { apiUrl } from '../providers/request';
import { getStoredUser, getToken } from '../providers/session';

/**
 * Live screens (issue 55): the signed-in person's event stream (`GET events`), read with fetch so the session header
 * goes with it. Each event marks the queries of what it changed stale, and react-query loads again those on screen
 * (the sale page, the sales list, the dashboard's tiles and charts, the Approvals count, an import's progress, My
 * Wallet); a toast says what changed for the person; a session ended elsewhere goes to Login with the session-ended
 * notice. A dropped stream is opened again after a growing wait, from the last event it received (Last-Event-ID).
 */

/** The query keys (their first part) each kind of event makes stale. Reports cover the dashboard and its charts. */
const STALE: Record<Exclude<LiveEventKind, 'session-ended'>, readonly string[]> = {
  sale: ['sales', 'report', 'wallet', 'transactions', 'books'],
  settlement: ['wallet', 'report', 'transactions', 'books', 'statements'],
  approval: ['approvals', 'wallet', 'transactions', 'books'],
  import: ['import'],
  lead: ['leads', 'report'],
};

/** Events often come in bursts (an import's batches, a settlement run): their refreshes are sent once per burst. */
const GATHER_MS = 300;
/** The wait before opening a dropped stream again: doubling from the first, up to the last. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/** Marks queries stale, gathered over GATHER_MS; `null` marks every query (an import that ended changed lists). */
function staleMarker(queryClient: QueryClient) {
  let keys = new Set<string | null>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const now = keys;
    keys = new Set();
    if (now.has(null)) void queryClient.invalidateQueries();
    else for (const key of now) void queryClient.invalidateQueries({ queryKey: [key] });
  };
  return {
    mark(more: readonly (string | null)[]) {
      for (const key of more) keys.add(key);
      timer ??= setTimeout(flush, GATHER_MS);
    },
    stop: () => clearTimeout(timer),
  };
}

type Toast = { key: string; args: Record<string, string> } | null;

/** What a toast says of an event, for this person (most events are for a screen only). */
function useToastOf() {
  const format = useFormat();
  const codeText = useEnumText();
  return (event: EventSourceMessage): Toast => {
    const me = getStoredUser();
    const kind = event.event as LiveEventKind;
    const data = JSON.parse(event.data) as LiveEventData[typeof kind];
    if (kind === 'sale') {
      const sale = data as LiveEventData['sale'];
      // Only for the people paid a commission on it; the one who sold sees its own screens change.
      if (sale.commission === undefined) return null;
      const args = { code: sale.code, amount: format.rupees(sale.commission) };
      if (sale.status === 'CONFIRMED') return { key: 'app.live.saleConfirmed', args };
      if (sale.status === 'FAILED') return { key: 'app.live.saleFailed', args };
      if (sale.status === 'REVERSED') return { key: 'app.live.saleReversed', args };
      return null;
    }
    if (kind === 'settlement') {
      const settled = data as LiveEventData['settlement'];
      return settled.user === me?._id
        ? { key: 'app.live.settled', args: { amount: format.rupees(settled.amount) } }
        : null;
    }
    if (kind === 'approval') {
      const command = data as LiveEventData['approval'];
      const args = { kind: codeText('commandKind', command.kind) };
      if (command.status === 'PENDING')
        return me?.type === UserType.ADMIN && command.maker !== me._id
          ? { key: 'app.live.approvalWaiting', args }
          : null;
      if (command.maker !== me?._id) return null;
      return {
        key: command.status === 'APPROVED' ? 'app.live.approvalApproved' : 'app.live.approvalRejected',
        args,
      };
    }
    if (kind === 'lead') {
      const lead = data as LiveEventData['lead'];
      return lead.status === 'NEW' ? { key: 'app.live.leadReceived', args: {} } : null;
    }
    return null;
  };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Mounted once in the signed-in layout: reads the stream while the panel is open. Draws nothing. */
export const LiveEvents = () => {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  const toastOf = useToastOf();
  // The stream lives as long as the layout; what it calls follows the latest render (language, notify).
  const latest = useRef({ notify, logoutIfAccessDenied, toastOf });
  latest.current = { notify, logoutIfAccessDenied, toastOf };

  useEffect(() => {
    const stop = new AbortController();
    const stale = staleMarker(queryClient);
    let lastEventId: string | undefined;
    const sessionEnded = () => void latest.current.logoutIfAccessDenied({ status: 401 });

    const handle = (event: EventSourceMessage) => {
      if (event.id) lastEventId = event.id;
      const kind = event.event as LiveEventKind;
      if (kind === 'session-ended') {
        stop.abort();
        sessionEnded();
        return;
      }
      if (!(kind in STALE)) return;
      const ended =
        kind === 'import' && (JSON.parse(event.data) as LiveEventData['import']).status !== 'RUNNING';
      stale.mark(ended ? [null] : STALE[kind as keyof typeof STALE]);
      const toast = latest.current.toastOf(event);
      if (toast) latest.current.notify(toast.key, { type: 'info', messageArgs: toast.args });
    };

    const read = async () => {
      let wait = RETRY_FIRST_MS;
      while (!stop.signal.aborted) {
        const token = getToken();
        if (!token) return;
        try {
          const response = await fetch(apiUrl('events'), {
            headers: {
              Accept: 'text/event-stream',
              'X-auth-token': `bearer ${token}`,
              ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}),
            },
            credentials: 'same-origin',
            cache: 'no-store',
            signal: stop.signal,
          });
          if (response.status === 401) {
            sessionEnded();
            return;
          }
          if (response.ok && response.body) {
            wait = RETRY_FIRST_MS;
            await response.body
              .pipeThrough(new TextDecoderStream())
              .pipeThrough(new EventSourceParserStream())
              .pipeTo(new WritableStream({ write: handle }), { signal: stop.signal });
          }
        } catch {
          // Dropped (the network, a server stopping): opened again below.
        }
        if (stop.signal.aborted) return;
        await pause(wait + Math.random() * wait * 0.2, stop.signal);
        wait = Math.min(wait * 2, RETRY_MAX_MS);
      }
    };
    void read();
    return () => {
      stop.abort();
      stale.stop();
    };
  }, [queryClient]);

  return null;
};
