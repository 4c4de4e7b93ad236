/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/vanillajs" />
import { registerSW } from 'virtual:pwa-register';

/**
 * How often an open panel asks the server for a new build's worker. The browser asks by itself only when a page
 * loads, and a back-office stays open all day on one page (vite-plugin-pwa's "Periodic Service Worker Updates").
 */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/** A new build's worker is installed and waits for the person to reload (layout/UpdatePrompt). */
let updateReady = false;
/** vite-plugin-pwa's updateSW: tells the waiting worker to take over. */
let takeOver: (() => Promise<void>) | undefined;
const listeners = new Set<() => void>();

export const isUpdateReady = (): boolean => updateReady;

/** For useSyncExternalStore. */
export function subscribeUpdate(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * The prompt's Reload: the waiting worker takes over, and this page reloads once that worker controls it. When
 * none waits any more (another tab's Reload made it the active one), the page reloads at once.
 */
export async function reloadIntoUpdate() {
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration?.waiting || !takeOver) {
    window.location.reload();
    return;
  }
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
    once: true,
  });
  await takeOver();
}

/**
 * Registers the panel's service worker (vite-plugin-pwa's virtual:pwa-register over Workbox's window library) in a
 * built panel, once the page has loaded: its own files first, then the registration's script and the worker's
 * install. Without service workers (or in the dev server) the panel works as before, online.
 */
export function registerServiceWorker() {
  // registerSW does nothing in a browser without service workers.
  if (!import.meta.env.PROD) return;
  const register = () => {
    takeOver = registerSW({
      onNeedRefresh() {
        updateReady = true;
        for (const listener of listeners) listener();
      },
      // The new worker took over (this page's Reload, or another tab's): vite-plugin-pwa would reload every tab
      // now. Only the page whose Reload it was does (reloadIntoUpdate); another keeps what its person typed, and
      // its prompt stays.
      onNeedReload() {},
      onRegisteredSW(_url, registration) {
        if (!registration) return;
        setInterval(() => {
          if (registration.installing || !navigator.onLine) return;
          // A check that fails (no network, the server down) is tried again at the next one.
          registration.update().catch(() => undefined);
        }, UPDATE_CHECK_MS);
      },
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
