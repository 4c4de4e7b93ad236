import { type ComponentType, lazy } from 'react';

/**
 * A screen whose code loads when its route first opens, so the sign-in page does not carry it. App wraps the
 * routes in Suspense; the build puts every screen in one lazy chunk (vite.config.ts, `screens`).
 */
export const lazyPage = <M>(load: () => Promise<M>, pick: (module: M) => ComponentType) =>
  lazy(() => load().then((module) => ({ default: pick(module) })));
