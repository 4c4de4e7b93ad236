import { useMemo } from 'react';
import { useLocaleState } from 'react-admin';
import type { DocumentLanguage } from '../../shared/constants/documents';
import { formatCount, formatDate, formatRupees } from '../../shared/format';

/**
 * The shared display formats (src/shared/format.ts) in the panel's chosen language, read from react-admin's
 * locale: dates in the seed's medium format ('Nov 26, 2026, 7:43:05 AM'; Hindi '26 नव॰ 2026, 07:43:05'; a calendar
 * day 'Nov 26, 2026'), rupees and counts with Indian
 * digit grouping. Every date, amount and count the panel shows goes through here; CSV exports stay English (the
 * columns' `value`).
 */
export const useFormat = () => {
  const [locale] = useLocaleState();
  return useMemo(
    () => ({
      locale,
      /** A moment, 'Nov 26, 2026, 7:43:05 AM'; a calendar day (YYYY-MM-DD), 'Nov 26, 2026'. */
      date: (value: unknown) => formatDate(value, { locale }),
      /** '₹1,23,456.50' */
      rupees: (value: unknown) => formatRupees(value, locale),
      /** '1,23,456' */
      count: (value: number | bigint) => formatCount(value, locale),
      /**
       * A calendar day the server names ('2026-11-26', India's calendar) as that day, whatever the viewer's time
       * zone: 'Nov 26, 2026', or with `dayMonth` 'Nov 26' (a chart's axis).
       */
      day: (isoDay: string, dayMonth = false) => formatDate(isoDay, { locale, dayMonth }),
    }),
    [locale],
  );
};

/**
 * The language to ask the server's documents in (a receipt, a statement, a TDS certificate: `lang=`): the panel's,
 * so a person reading Hindi downloads a Hindi PDF.
 */
export const useDocumentLanguage = (): DocumentLanguage => (useLocaleState()[0] === 'hi' ? 'hi' : 'en');

/** A date in the chosen language, for places that are no hook (a column's render). */
export const DateText = ({ value }: { value: unknown }) => <>{useFormat().date(value)}</>;

/** Rupees in the chosen language, for places that are no hook (a column's render). */
export const RupeesText = ({ value }: { value: unknown }) => <>{useFormat().rupees(value)}</>;
