import polyglotI18nProvider from 'ra-i18n-polyglot';
import { en } from './en';

/** English only for now; `allowMissing` lets literal texts (e.g. server messages) pass through translate(). */
export const i18nProvider = polyglotI18nProvider(() => en, 'en', [{ locale: 'en', name: 'English' }], {
  allowMissing: true,
});
