import './zodConfig';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { preloadScreens } from './layout/lazyPage';
import { getToken } from './providers/session';
import { registerServiceWorker } from './serviceWorker';

// Signed in already (a reload, a link to a screen): the screens start loading beside the app's own start
// instead of after it.
if (getToken()) void preloadScreens();

const root = document.getElementById('root');
if (!root) throw new Error('#root element missing from index.html');

registerServiceWorker();

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
