import { type ComponentType, lazy } from 'react';

/** Every screen's loader, so the whole screens chunk can be loaded ahead of the first screen that opens. */
const loaders = new Set<() => Promise<unknown>>();

/**
 * A screen whose code loads when its route first opens, so the sign-in page does not carry it. App wraps the
 * routes in Suspense; the build puts every screen in one lazy chunk (vite.config.ts, `screens`). Once its code
 * is here (`preloadScreens`), the screen renders without suspending: React holds a revealed Suspense boundary
 * back for a while after it shows, which visibly delayed the dashboard's tiles after Login. React.lazy reads a
 * thenable that resolves synchronously as already loaded, so a loaded screen answers with one.
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  let Page: ComponentType | undefined;
  const fetchPage = () =>
    load().then((module) => {
      Page = pick(module);
      return Page;
    });
  loaders.add(fetchPage);
  return lazy(() => {
    const loaded = Page;
    if (!loaded) return fetchPage().then((page) => ({ default: page }));
    const resolved = {
      // biome-ignore lint/suspicious/noThenProperty: React.lazy takes a thenable that resolves synchronously as loaded (react's lazyInitializer).
      then: (resolve: (module: { default: ComponentType }) => void) => resolve({ default: loaded }),
    };
    return resolved as unknown as Promise<{ default: ComponentType }>;
  });
}

/** Loads every screen's code (one chunk): while the user types their password, or at start when signed in. */
export const preloadScreens = () => Promise.all([...loaders].map((fetchPage) => fetchPage()));
