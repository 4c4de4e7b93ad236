/**
 * Whether the panel is offline: the browser says it has no network, or the last request got no answer at all
 * (status 0: a network that is up but reaches nothing). Any answer from the server, an error included, ends the
 * second; react-query asks again when the browser comes back online.
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

/** For useSyncExternalStore: the browser's online/offline events and httpClient's reports. */
export function subscribeConnectivity(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}
