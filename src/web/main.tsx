import './zodConfig';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { preloadScreens } from './layout/lazyPage';
import { setStartNotice } from './layout/startNotice';
import { getToken } from './providers/session';

/**
 * Starts the panel in `root` (src/web/entry.ts calls it): at once when signed in or on a page other than sign-in,
 * or after the sign-in entry stored the session, with its success `notice` for the panel's toast.
 */
export function startPanel(root: HTMLElement, { notice }: { notice?: string } = {}) {
  setStartNotice(notice);
  // Signed in already (a reload, a link to a screen, the entry's Login): the screens start loading beside the
  // app's own start instead of after it.
  if (getToken()) void preloadScreens();
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
