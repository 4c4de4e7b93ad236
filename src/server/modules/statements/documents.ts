import { PDFDocument, type PDFFont, type PDFPage, StandardFonts } from 'pdf-lib';
import { UserType } from '../../../shared/enums';
import { paiseToRupees } from '../../../shared/money';
import type { Statement } from '../../../shared/schemas/statements';
import { csvText } from '../../http/csv';
import type { Balances, MonthStatement, StatementPosting } from './queries';

/** The statement on the wire (JSON): money in rupees, as the rest of the API writes it. */
export const toWireStatement = (s: MonthStatement): Statement => {
  const balances = (b: Balances) => ({
    balance: paiseToRupees(b.balance),
    clearingBalance: paiseToRupees(b.clearing),
  });
  return {
    user: { _id: s.user.id, name: s.user.name, type: s.user.type },
    month: s.month,
    from: s.from,
    to: s.to,
    opening: balances(s.opening),
    closing: balances(s.closing),
    lines: s.lines.map((l) => ({
      _id: l.id,
      createdAt: l.createdAt.toISOString(),
      date: l.date,
      time: l.time,
      kind: l.kind,
      transactionType: l.transactionType,
      balanceType: l.balanceType,
      reference: l.reference,
      boughtProductId: l.boughtProductId,
      product: l.product,
      customer: l.customer,
      amount: paiseToRupees(l.amount),
      tax: l.tax === null ? null : paiseToRupees(l.tax),
      balance: paiseToRupees(l.after.balance),
      clearingBalance: paiseToRupees(l.after.clearing),
    })),
  };
};

/** Exact decimal rupees of paise ('-1234.50'), from the bigint: no JavaScript number in between. */
export function rupeesText(paise: bigint): string {
  const sign = paise < 0n ? '-' : '';
  const abs = paise < 0n ? -paise : paise;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** Rupees for reading ('-1,23,456.50'): Indian grouping (lakhs, crores), exact. */
export function groupedRupees(paise: bigint): string {
  const [whole, fraction] = rupeesText(paise).split('.');
  const negative = whole.startsWith('-');
  const digits = negative ? whole.slice(1) : whole;
  const last3 = digits.slice(-3);
  const rest = digits.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',');
  return `${negative ? '-' : ''}${rest ? `${rest},` : ''}${last3}.${fraction}`;
}

const CSV_HEADER = [
  'Date',
  'Time',
  'Kind',
  'Credit or debit',
  'Balance moved',
  'Reference',
  'Product',
  'Customer',
  'Customer mobile',
  'Amount',
  'Tax',
  'Available balance',
  'Clearing balance',
];

/**
 * The statement as CSV (the server's CSV writer, formulas neutralised): the opening balances first, a row per
 * line, the closing balances last, in the same columns; money as exact decimal rupees.
 */
export function statementCsv(s: MonthStatement): string {
  const edge = (label: string, day: string, b: Balances) => [
    day,
    '',
    label,
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    rupeesText(b.balance),
    rupeesText(b.clearing),
  ];
  return csvText([
    CSV_HEADER,
    edge('OPENING', s.from, s.opening),
    ...s.lines.map((l) => [
      l.date,
      l.time,
      l.kind,
      l.transactionType,
      l.balanceType,
      l.reference,
      l.product,
      l.customer?.name,
      l.customer?.mobile,
      rupeesText(l.amount),
      l.tax === null ? '' : rupeesText(l.tax),
      rupeesText(l.after.balance),
      rupeesText(l.after.clearing),
    ]),
    edge('CLOSING', s.to, s.closing),
  ]);
}

/** What the standard fonts cannot draw (WinAnsi: Latin-1 and a few more) shows as '?', never a failure. */
const drawable = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

/** A table column of the PDF: its heading, width (points), alignment, and the cell of a line. */
interface PdfColumn {
  heading: string;
  width: number;
  right?: boolean;
  cell: (line: StatementPosting) => string;
}

/** The statement's owner types, as the PDF names them. */
const TYPE_NAMES: Record<number, string> = {
  [UserType.MASTER_DISTRIBUTOR]: 'Master distributor',
  [UserType.DISTRIBUTOR]: 'Distributor',
  [UserType.RETAILER]: 'Retailer',
};

const kindName = (kind: string) => kind.charAt(0) + kind.slice(1).toLowerCase();

const PDF_COLUMNS: PdfColumn[] = [
  { heading: 'Date and time', width: 78, cell: (l) => `${l.date} ${l.time.slice(0, 5)}` },
  { heading: 'Kind', width: 58, cell: (l) => kindName(l.kind) },
  { heading: 'Balance', width: 48, cell: (l) => kindName(l.balanceType) },
  { heading: 'Reference', width: 96, cell: (l) => l.reference ?? '' },
  { heading: 'Product', width: 84, cell: (l) => l.product ?? '' },
  {
    heading: 'Customer',
    width: 104,
    cell: (l) => (l.customer ? `${l.customer.name} ${l.customer.mobile ?? ''}`.trim() : ''),
  },
  {
    heading: 'Credit',
    width: 62,
    right: true,
    cell: (l) => (l.transactionType === 'CREDIT' ? groupedRupees(l.amount) : ''),
  },
  {
    heading: 'Debit',
    width: 62,
    right: true,
    cell: (l) => (l.transactionType === 'DEBIT' ? groupedRupees(l.amount) : ''),
  },
  { heading: 'Tax', width: 50, right: true, cell: (l) => (l.tax === null ? '' : groupedRupees(l.tax)) },
  { heading: 'Available', width: 70, right: true, cell: (l) => groupedRupees(l.after.balance) },
  { heading: 'Clearing', width: 70, right: true, cell: (l) => groupedRupees(l.after.clearing) },
];

/** A4 landscape, in points. */
const PAGE: [number, number] = [841.89, 595.28];
const MARGIN = 28;
const CELL_PAD = 3;
const SIZE = 7.5;
const ROW = 13;

/** Text cut to fit `width` at `size` (an ellipsis marks the cut). */
function fitted(font: PDFFont, text: string, width: number, size: number) {
  let shown = drawable(text);
  if (font.widthOfTextAtSize(shown, size) <= width) return shown;
  while (shown.length > 0 && font.widthOfTextAtSize(`${shown}...`, size) > width) shown = shown.slice(0, -1);
  return `${shown}...`;
}

/**
 * The statement as a PDF (pdf-lib, a kept library, as the TDS certificates are made): a heading with the user, its
 * type, the month and the opening balances; a table of the lines (its heading row again on every page); the
 * closing balances. Rupees written 'Rs.' (the standard fonts have no rupee sign). Every cell is its own text
 * operator, so the figures can be read back from the file.
 */
export async function statementPdf(s: MonthStatement): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Statement ${s.user.name} ${s.month}`);
  pdf.setProducer('Tierdesk');
  pdf.setCreator('Tierdesk');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page: PDFPage = pdf.addPage(PAGE);
  let y = PAGE[1] - MARGIN - 14;
  const text = (value: string, x: number, size: number, face: PDFFont = font) =>
    page.drawText(drawable(value), { x, y, size, font: face });
  const balances = (label: string, b: Balances) => {
    text(
      `${label}: available Rs. ${groupedRupees(b.balance)}, clearing Rs. ${groupedRupees(b.clearing)}`,
      MARGIN,
      10,
      bold,
    );
    y -= 16;
  };
  const headingRow = () => {
    let x = MARGIN;
    for (const column of PDF_COLUMNS) {
      const shown = fitted(bold, column.heading, column.width - 2 * CELL_PAD, SIZE);
      const left = column.right
        ? x + column.width - CELL_PAD - bold.widthOfTextAtSize(shown, SIZE)
        : x + CELL_PAD;
      page.drawText(shown, { x: left, y, size: SIZE, font: bold });
      x += column.width;
    }
    page.drawLine({
      start: { x: MARGIN, y: y - 3 },
      end: { x: PAGE[0] - MARGIN, y: y - 3 },
      thickness: 0.6,
    });
    y -= ROW;
  };

  text(`Statement of ${s.user.name}`, MARGIN, 14, bold);
  y -= 20;
  text(`${TYPE_NAMES[s.user.type] ?? ''}, month ${s.month} (${s.from} to ${s.to})`, MARGIN, 10);
  y -= 18;
  balances('Opening balance', s.opening);
  y -= 4;
  headingRow();
  if (s.lines.length === 0) {
    text('No postings in this month', MARGIN + CELL_PAD, SIZE);
    y -= ROW;
  }
  for (const line of s.lines) {
    if (y < MARGIN + ROW) {
      page = pdf.addPage(PAGE);
      y = PAGE[1] - MARGIN - 10;
      headingRow();
    }
    let x = MARGIN;
    for (const column of PDF_COLUMNS) {
      const shown = fitted(font, column.cell(line), column.width - 2 * CELL_PAD, SIZE);
      if (shown) {
        const left = column.right
          ? x + column.width - CELL_PAD - font.widthOfTextAtSize(shown, SIZE)
          : x + CELL_PAD;
        page.drawText(shown, { x: left, y, size: SIZE, font });
      }
      x += column.width;
    }
    y -= ROW;
  }
  if (y < MARGIN + 20) {
    page = pdf.addPage(PAGE);
    y = PAGE[1] - MARGIN - 14;
  }
  y -= 6;
  balances('Closing balance', s.closing);
  return pdf.save({ useObjectStreams: false });
}
