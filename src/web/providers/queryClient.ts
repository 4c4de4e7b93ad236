import { onlineManager, QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isOffline, subscribeConnectivity } from './connectivity';

/**
 * react-query's online state is the panel's own (connectivity.ts). Its default starts online and hears only the
 * browser's events, so a panel opened offline from its service worker (TanStack's onlineManager docs name the case)
 * never went offline for it, and the connection's return changed nothing: nothing was asked again. Now the change to
 * online (the browser's `online` event, or the first answer after requests went unanswered) is what
 * refetchOnReconnect reloads the failed and stale queries on.
 */
onlineManager.setEventListener((setOnline) => {
  setOnline(!isOffline());
  return subscribeConnectivity(() => setOnline(!isOffline()));
});

/**
 * The panel's react-query client, one per App (a test renders the App afresh, with nothing cached). networkMode
 * 'always': a request goes out whatever the connection looks like, so offline a screen shows its own error with
 * Retry, and a save fails with the seed's 'Internet connection error' rather than being paused and sent later, when
 * the person may have left the form (docs/operations.md: no write is queued offline). With 'always', react-query
 * turns refetchOnReconnect off unless asked: it is asked, so what failed or went stale loads again when the
 * connection is back.
 */
export const usePanelQueryClient = (): QueryClient =>
  useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { networkMode: 'always', refetchOnReconnect: true },
          mutations: { networkMode: 'always' },
        },
      }),
  )[0];
