// TDS under section 194H (issue 43): the texts both sides use, without zod (schemas/tds.ts re-exports them).

export const TDS_MSG = {
  bsrCode: 'BSR code must be 7 digits',
  challanSerial: 'Challan serial number must be 1 to 5 digits',
  date: 'Date must be a date (YYYY-MM-DD), not in the future',
  aboveTdsPayable: (payable: string) => `The amount is more than TDS payable (${payable})`,
  challanUsed: 'This challan (BSR code, serial number and date) is already recorded with another amount',
  depositRecorded: 'TDS deposit recorded',
  depositReplayed: 'This TDS deposit was already recorded',
  fy: 'fy must be a financial year such as 2026-27',
  quarter: 'quarter must be Q1, Q2, Q3 or Q4',
  format: 'format must be json, csv or pdf',
  userNotFound: 'User not found',
  notDeductee: 'This user is not a deductee',
} as const;

/**
 * A challan's serial number as the challan prints it: five digits, so `1`, `01` and `00001` are one serial (the
 * challan is its bank branch's BSR code, its date and this serial).
 */
export const challanSerialOf = (typed: string) => typed.padStart(5, '0');

/** Quarters of India's financial year: Q1 April to June ... Q4 January to March. */
export const TDS_QUARTERS = ['Q1', 'Q2', 'Q3', 'Q4'] as const;
export type TdsQuarter = (typeof TDS_QUARTERS)[number];

/** Section 194H: the nature of payment on Form 26Q and Form 16A. */
export const TDS_SECTION = '194H';
