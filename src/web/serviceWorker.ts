/// <reference types="vite/client" />

/** The service worker the build writes (vite-plugin-pwa, vite.config.ts); the dev server has none. */
const WORKER_URL = '/sw.js';

const isPanelAsset = (url: URL) =>
  url.origin === window.location.origin && url.pathname.startsWith('/assets/');

/**
 * What this page loaded before the worker controlled it (the first visit: the page loads, then the worker
 * installs) did not pass through the worker, so it kept none of it. Once the worker controls the page, each of
 * those files is asked for again through it: the browser's own cache answers (the hashed files are cached for a
 * year), and the worker keeps its copy for an offline visit. index.html too, when the page itself did not come
 * through the worker. A file that came through the worker (`workerStart` set) is kept already.
 */
function keepWhatThePageLoaded() {
  const ask = (url: string) => {
    // Nothing to do if it fails: the next visit online fetches it through the worker.
    void fetch(url).catch(() => undefined);
  };
  const asked = new Set<string>();
  const keep = (entries: PerformanceEntryList) => {
    if (!navigator.serviceWorker.controller) return;
    for (const entry of entries as PerformanceResourceTiming[]) {
      if (entry.workerStart > 0 || asked.has(entry.name) || !isPanelAsset(new URL(entry.name))) continue;
      asked.add(entry.name);
      ask(entry.name);
    }
  };
  const start = () => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    if (navigation && navigation.workerStart === 0) ask('/index.html');
    // `buffered`: the files loaded so far first, then each one as it finishes.
    new PerformanceObserver((list) => keep(list.getEntries())).observe({ type: 'resource', buffered: true });
  };
  if (navigator.serviceWorker.controller) start();
  else navigator.serviceWorker.addEventListener('controllerchange', start, { once: true });
}

/**
 * Registers the panel's service worker once the page has loaded (the page's own files first), in a built panel
 * on a browser that has service workers. Without one the panel works as before, online.
 */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register(WORKER_URL).then(keepWhatThePageLoaded, () => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
