/**
 * A tiny global notifier: httpClient is not a component and cannot call react-admin's useNotify,
 * so it emits here and <HttpErrorToasts/> (mounted once, globally, in AppNotification) turns
 * each event into a react-admin notification.
 */
export interface ErrorToast {
  message: string;
}

type Listener = (toast: ErrorToast) => void;

const listeners = new Set<Listener>();

export const toastBus = {
  emitError(message: string): void {
    for (const listener of listeners) listener({ message });
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};
