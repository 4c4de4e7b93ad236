import { type ComponentType, createElement, lazy } from 'react';

/** Every screen's loader, so the whole screens chunk can be loaded ahead of the first screen that opens. */
const loaders = new Set<() => Promise<unknown>>();

/**
 * A screen whose code loads when its route first opens, so the sign-in page does not carry it. App wraps the
 * routes in Suspense; the build puts every screen in one lazy chunk (vite.config.ts, `screens`). Once its code
 * is here (opened before, or `preloadScreens`), the screen renders at once: a React.lazy component suspends on
 * its first render even when its module is loaded, and React holds a revealed Suspense boundary back for up to
 * 300 ms, which added 600 ms between Login and the dashboard's tiles.
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  let Page: ComponentType | undefined;
  const fetchPage = () =>
    load().then((module) => {
      Page = pick(module);
      return Page;
    });
  loaders.add(fetchPage);
  const Lazy = lazy(() => fetchPage().then((page) => ({ default: page })));
  return function Screen(props: object) {
    return createElement(Page ?? Lazy, props);
  };
}

/** Loads every screen's code (one chunk): while the user types their password, or at start when signed in. */
export const preloadScreens = () => Promise.all([...loaders].map((fetchPage) => fetchPage()));
