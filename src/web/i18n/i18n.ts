import polyglotI18nProvider from 'ra-i18n-polyglot';
import { en } from './en';
import { LOCALES } from './signin/texts';

/** The panel's languages: English (the seed's texts) and Hindi, as the sign-in form offers them. */
export { LOCALES };

/**
 * English is in the bundle; the Hindi catalogue is a chunk of its own, loaded only when Hindi is chosen (react-admin
 * restores a choice remembered in its store at start). `allowMissing` lets texts that are no catalogue key (a
 * server message with a name in it) pass through translate() as they are.
 */
export const i18nProvider = polyglotI18nProvider(
  (locale) => (locale === 'hi' ? import('./hi').then((module) => module.hi) : en),
  'en',
  LOCALES,
  { allowMissing: true },
);
