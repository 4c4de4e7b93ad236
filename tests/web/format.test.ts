import { formatDate, titleCase } from '../../src/shared/format';

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

describe('formatDate (medium format)', () => {
  it('formats an ISO time as en-US medium date', () => {
    // Midday UTC stays on the same calendar day in every time zone from UTC-11 to UTC+11.
    expect(formatDate('2026-11-21T12:00:00.000Z')).toBe('Nov 21, 2026');
    expect(formatDate(new Date(2024, 0, 5))).toBe('Jan 5, 2024');
  });

  it('answers empty text for missing or invalid dates', () => {
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});
