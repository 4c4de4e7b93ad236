/**
 * The server's CSV writer (RFC 4180, CRLF lines) for the files a report answers (`format=csv`).
 */

/** A plain decimal number written as text (exact money, '-20.00'): a spreadsheet reads it as a number, never a formula. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * One cell: quoted when needed, and text a spreadsheet would run as a formula neutralised with a `'` (OWASP, CSV
 * injection); numbers, and plain decimal text such as exact money, are written as they are.
 */
export const csvCell = (value: string | number | null | undefined) => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) && !DECIMAL.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** Rows of cells as one CSV text. */
export const csvText = (rows: readonly (readonly (string | number | null | undefined)[])[]) =>
  `${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
