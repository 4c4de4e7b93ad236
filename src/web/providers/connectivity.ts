/**
 * Whether the panel is offline: the browser says it has no network, or the last request got no answer at all
 * (status 0: a network that is up but reaches nothing). Any answer from the server, an error included, ends the
 * second, and so does the browser's `online` event: the connection is back, and the requests react-query then
 * sends again (providers/queryClient.ts) say whether the server answers. Free of React, for the sign-in entry too.
 */
let unanswered = false;
const listeners = new Set<() => void>();

const notify = () => {
  for (const listener of listeners) listener();
};

/** httpClient's report after each request: whether it got an answer. */
export function reportAnswered(answered: boolean) {
  if (unanswered === !answered) return;
  unanswered = !answered;
  notify();
}

export const isOffline = (): boolean => unanswered || navigator.onLine === false;

window.addEventListener('online', () => {
  unanswered = false;
  notify();
});
window.addEventListener('offline', notify);

/**
 * For useSyncExternalStore and react-query's onlineManager: the browser's online/offline events and httpClient's
 * reports.
 */
export function subscribeConnectivity(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
