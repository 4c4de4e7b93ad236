import { formatCount, formatDate, formatMonth, formatRupees, titleCase } from '../../src/shared/format';

describe('titleCase (names in lists)', () => {
  it.each([
    ['uttar pradesh', 'Uttar Pradesh'],
    ['MAHARASHTRA', 'Maharashtra'],
    ['jammu & kashmir', 'Jammu & Kashmir'],
    ['  north-east  zone', '  North-East  Zone'],
    ['pune 2', 'Pune 2'],
    ['NSDL payments bank', 'NSDL Payments Bank'],
    ['PayU sprint bank', 'PayU Sprint Bank'],
    ['JAMMU & KASHMIR', 'Jammu & Kashmir'],
    ['', ''],
  ])('%j -> %j', (input, expected) => {
    expect(titleCase(input)).toBe(expected);
  });

  it('treats null and undefined as empty', () => {
    expect(titleCase(null)).toBe('');
    expect(titleCase(undefined)).toBe('');
  });
});

// Midday UTC stays on the same calendar day in every time zone from UTC-11 to UTC+11.
const NOON = '2026-11-21T12:00:00.000Z';

describe('formatDate (medium format)', () => {
  it("formats a moment as Angular's medium date and time, with seconds (issue 53)", () => {
    expect(formatDate(new Date(2024, 0, 5, 9, 3, 7))).toMatch(/^Jan 5, 2024, 9:03:07\sAM$/);
    expect(formatDate(new Date(2026, 10, 28, 11, 43, 22).toISOString())).toMatch(
      /^Nov 28, 2026, 11:43:22\sAM$/,
    );
  });

  it('formats a moment’s day alone with `day`, and a calendar day as the day written, in any time zone', () => {
    // Midday UTC stays on the same calendar day in every time zone from UTC-11 to UTC+11.
    expect(formatDate(NOON, { day: true })).toBe('Nov 21, 2026');
    expect(formatDate('2026-10-01')).toBe('Oct 1, 2026');
    expect(formatDate('2026-12-31', { timeZone: 'America/Los_Angeles' })).toBe('Dec 31, 2026');
    expect(formatDate('2026-10-01', { timeZone: 'Pacific/Kiritimati', locale: 'hi' })).toBe('1 अक्टू॰ 2026');
  });

  it('answers empty text for missing or invalid dates', () => {
    expect(formatDate(undefined)).toBe('');
    expect(formatDate(null)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(formatDate('2026-02-30')).toBe('');
  });
});

describe('formatDate in the chosen language (issues 44, 53)', () => {
  it("writes Hindi's medium date with Hindi month names", () => {
    expect(formatDate(NOON, { locale: 'hi', day: true })).toBe('21 नव॰ 2026');
    expect(formatDate('2024-01-05', { locale: 'hi' })).toBe('5 जन॰ 2024');
    expect(formatDate(NOON, { locale: 'en', day: true })).toBe('Nov 21, 2026');
  });

  it("with the time, is Angular's medium form in English and a 24-hour clock in Hindi (no Latin am/pm)", () => {
    const morning = new Date(2026, 10, 26, 7, 43, 5);
    expect(formatDate(morning)).toMatch(/^Nov 26, 2026, 7:43:05\sAM$/);
    expect(formatDate(new Date(2026, 10, 26, 19, 43, 5), { locale: 'hi' })).toBe('26 नव॰ 2026, 19:43:05');
  });

  it('reads the moment in the time zone asked for (the documents give India’s), whatever the viewer’s', () => {
    // 18:29:59 UTC is the last second of 26 November in India (UTC+05:30).
    const at = '2026-11-26T18:29:59Z';
    expect(formatDate(at, { timeZone: 'Asia/Kolkata' })).toMatch(/^Nov 26, 2026, 11:59:59\sPM$/);
    expect(formatDate(at, { locale: 'hi', timeZone: 'Asia/Kolkata' })).toBe('26 नव॰ 2026, 23:59:59');
    expect(formatDate(at, { timeZone: 'UTC', day: true })).toBe('Nov 26, 2026');
    expect(formatDate('2026-11-26T18:30:00Z', { timeZone: 'Asia/Kolkata', day: true })).toBe('Nov 27, 2026');
  });

  it('formats a language it does not know as English', () => {
    expect(formatDate(NOON, { locale: 'fr', day: true })).toBe('Nov 21, 2026');
  });
});

describe("formatMonth (a statement's month)", () => {
  it("names the month and year in the language asked for, whatever the viewer's time zone", () => {
    expect(formatMonth('2031-01')).toBe('January 2031');
    expect(formatMonth('2031-01', 'hi')).toBe('जनवरी 2031');
    expect(formatMonth('2026-12', 'en')).toBe('December 2026');
  });

  it('is empty for what is not a month', () => {
    for (const value of ['2031-13', '2031-00', '2031-1', 'January', '', null, undefined])
      expect(formatMonth(value)).toBe('');
  });
});

describe('formatRupees and formatCount: Indian digit grouping in both languages', () => {
  it.each(['en', 'hi'])('%s: lakhs and crores', (locale) => {
    expect(formatRupees('12345678.5', locale)).toBe('₹1,23,45,678.50');
    expect(formatRupees(-2500, locale)).toBe('-₹2,500.00');
    expect(formatCount(7889912, locale)).toBe('78,89,912');
  });

  it('formats a decimal string exactly, past what a float holds', () => {
    // As a float this amount reads ₹90,07,19,92,54,74,099.40.
    expect(formatRupees('900719925474099.37')).toBe('₹90,07,19,92,54,74,099.37');
  });

  it('answers empty text for what is not an amount', () => {
    for (const value of [null, undefined, '', 'abc', '1e5x', Number.NaN])
      expect(formatRupees(value)).toBe('');
  });
});
