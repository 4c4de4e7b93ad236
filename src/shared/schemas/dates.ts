import { z } from 'zod';

/**
 * The two kinds of date the server answers, each one schema that every answer's date field uses, so the panel and
 * tests/web/wireDates.test.ts find them all: both are shown with formatDate (src/shared/format.ts), the seed's medium
 * format.
 */

/** A moment: an ISO 8601 time ('2026-11-28T06:13:22.000Z'), shown as 'Nov 28, 2026, 11:43:22 AM'. */
export const isoTime = z.string().describe('ISO 8601 time');

/** A day of India's calendar, YYYY-MM-DD ('2026-10-01': a period's end, a last credit), shown as 'Oct 1, 2026'. */
export const isoDay = z.string().describe('YYYY-MM-DD, a day of India’s calendar');
