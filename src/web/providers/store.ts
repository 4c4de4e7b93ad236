import { localStorageStore, type Store } from 'react-admin';

/** react-admin's key prefix in localStorage ('RaStore.locale'). */
const PREFIX = 'RaStore';
/** The user's preferences, which outlive a sign-out: the language and the theme. */
const PREFERENCES = new Set(['locale', 'theme']);

/**
 * react-admin's localStorage store (list filters, the sidebar, the language, the theme), except that a sign-out,
 * which resets the store, keeps the language and the theme: a choice of the person at this browser, not session
 * data.
 */
export const createStore = (): Store => {
  const store = localStorageStore();
  return {
    ...store,
    reset() {
      const keys = Object.keys(localStorage)
        .filter((key) => key.startsWith(`${PREFIX}.`))
        .map((key) => key.slice(PREFIX.length + 1))
        .filter((key) => key !== 'version' && !PREFERENCES.has(key));
      for (const key of keys) store.removeItem(key);
    },
  };
};
