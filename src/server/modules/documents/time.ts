import type { DocumentLanguage } from '../../../shared/constants/documents';
import { BUSINESS_TIME_ZONE } from '../../../shared/dates';
import { formatDate } from '../../../shared/format';

/** Documents read time in India's zone (the business's), whatever the server's own. */
const INDIA = BUSINESS_TIME_ZONE;

/** A moment in the panel's medium date and time, in India's time: 'Nov 26, 2026, 5:03:05 PM' ('26 नव॰ 2026, 17:03:05'). */
export const indiaTime = (at: Date, lang: DocumentLanguage) =>
  formatDate(at, { locale: lang, timeZone: INDIA });

/** A day of India's calendar (YYYY-MM-DD) in the panel's medium date: 'Apr 1, 2031' ('1 अप्रैल 2031'). */
export const indiaDay = (day: string, lang: DocumentLanguage) => formatDate(day, { locale: lang });
