/** Indian identity numbers: checks shared by the panel's forms and the server. */

// Verhoeff tables (dihedral group D5): multiplication, permutation and inverse.
const D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];
const INV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9];

/** True when the last digit of `digits` is its Verhoeff check digit. */
export function verhoeffValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let c = 0;
  const reversed = digits.split('').reverse();
  for (let i = 0; i < reversed.length; i++) c = D[c][P[i % 8][Number(reversed[i])]];
  return c === 0;
}

/** The Verhoeff check digit to append to `digits`. */
export function verhoeffDigit(digits: string): number {
  let c = 0;
  const reversed = digits.split('').reverse();
  for (let i = 0; i < reversed.length; i++) c = D[c][P[(i + 1) % 8][Number(reversed[i])]];
  return INV[c];
}

/** 12 digits, first digit 2-9, valid Verhoeff check digit (UIDAI's rules). */
export const isValidAadhar = (value: string) => /^[2-9]\d{11}$/.test(value) && verhoeffValid(value);

export const PAN_PATTERN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;
export const MOBILE_PATTERN = /^[6-9]\d{9}$/;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;
export const PINCODE_PATTERN = /^[1-9]\d{5}$/;

/** What the API shows of an Aadhar number: only the last four digits. */
export const maskAadhar = (last4: string) => `XXXXXXXX${last4}`;

/** What the audit trail shows of a mobile number: the first two and last two digits (`98XXXXXX10`). */
export const maskMobile = (mobile: string) =>
  mobile.length <= 4
    ? 'X'.repeat(mobile.length)
    : `${mobile.slice(0, 2)}${'X'.repeat(mobile.length - 4)}${mobile.slice(-2)}`;

/** What the audit trail shows of an e-mail address: two letters of the name and the domain (`ra***@example.com`). */
export const maskEmail = (email: string) => {
  const at = email.lastIndexOf('@');
  return at < 0 ? '***' : `${email.slice(0, Math.min(2, at))}***${email.slice(at)}`;
};

/** What the audit trail shows of a PAN: the last five characters (`XXXXX1234F`). */
export const maskPan = (pan: string) => `XXXXX${pan.slice(-5)}`;
