import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';
import { i18nProvider } from '../../src/web/i18n/i18n';

// findBy*/waitFor wait for what a user would wait for. Testing Library's 1 s default is shorter than a first
// render of the panel on a loaded 2-core CI machine (seen: 1.2 s for /home -> /auth); 10 s is not, and a check
// that really fails still fails, only later. The test timeout (vite.config.ts) is sized to match.
configure({ asyncUtilTimeout: 10_000 });

// MUI's useMediaQuery (react-admin layout) needs matchMedia, which jsdom lacks.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
// jsdom does not implement scrolling.
window.scrollTo = () => {};

afterEach(async () => {
  // The i18n provider is one object per test file: a test in Hindi leaves it in Hindi, and the next test's fresh
  // store starts in the provider's language.
  if (i18nProvider.getLocale() !== 'en') await i18nProvider.changeLocale('en');
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
