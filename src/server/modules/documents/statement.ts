import type { DocumentLanguage } from '../../../shared/constants/documents';
import { formatRupees } from '../../../shared/format';
import { paiseToDecimal } from '../../../shared/money';
import { A4, documentPdf } from './pdf';
import { DOCUMENT_TEXTS, type DocumentTexts } from './texts';
import { indiaDay, indiaTime } from './time';

/** Balances at one moment, in exact paise. */
interface StatementBalances {
  balance: bigint;
  clearing: bigint;
}

/** One posting of a statement, as the PDF prints it (money in exact paise). */
export interface StatementDocumentLine {
  createdAt: Date;
  kind: string;
  transactionType: 'CREDIT' | 'DEBIT';
  balanceType: string;
  reference: string | null;
  product: string | null;
  customer: { name: string; mobile: string | null } | null;
  amount: bigint;
  tax: bigint | null;
  after: StatementBalances;
}

/** A tier user's month (the statements module's MonthStatement), as the PDF reads it. */
export interface StatementDocument {
  user: { name: string; type: number };
  /** The month's first and last day in India's calendar (YYYY-MM-DD). */
  from: string;
  to: string;
  opening: StatementBalances;
  closing: StatementBalances;
  lines: StatementDocumentLine[];
}

/** Paise as the documents write money: the panel's rupees ('₹1,23,456.50'), exact. */
const rupees = (paise: bigint, lang: DocumentLanguage) => formatRupees(paiseToDecimal(paise), lang);

/** A table column of the PDF: its heading, width (points), alignment, and the cell of a line. */
interface PdfColumn {
  heading: keyof DocumentTexts['statement']['columns'];
  width: number;
  right?: boolean;
  cell: (line: StatementDocumentLine, lang: DocumentLanguage) => string;
}

const textsOf = (lang: DocumentLanguage) => DOCUMENT_TEXTS[lang].statement;

/** The columns, 785 points in all (A4 on its side less the margins). */
const PDF_COLUMNS: PdfColumn[] = [
  { heading: 'date', width: 102, cell: (l, lang) => indiaTime(l.createdAt, lang) },
  { heading: 'kind', width: 50, cell: (l, lang) => textsOf(lang).kinds[l.kind] ?? l.kind },
  {
    heading: 'balanceType',
    width: 44,
    cell: (l, lang) => textsOf(lang).balanceTypes[l.balanceType] ?? l.balanceType,
  },
  { heading: 'reference', width: 100, cell: (l) => l.reference ?? '' },
  { heading: 'product', width: 73, cell: (l) => l.product ?? '' },
  {
    heading: 'customer',
    width: 106,
    cell: (l) => (l.customer ? `${l.customer.name} ${l.customer.mobile ?? ''}`.trim() : ''),
  },
  {
    heading: 'credit',
    width: 62,
    right: true,
    cell: (l, lang) => (l.transactionType === 'CREDIT' ? rupees(l.amount, lang) : ''),
  },
  {
    heading: 'debit',
    width: 62,
    right: true,
    cell: (l, lang) => (l.transactionType === 'DEBIT' ? rupees(l.amount, lang) : ''),
  },
  { heading: 'tax', width: 50, right: true, cell: (l, lang) => (l.tax === null ? '' : rupees(l.tax, lang)) },
  { heading: 'balance', width: 68, right: true, cell: (l, lang) => rupees(l.after.balance, lang) },
  { heading: 'clearingBalance', width: 68, right: true, cell: (l, lang) => rupees(l.after.clearing, lang) },
];

const PAGE = A4.landscape;
const MARGIN = 28;
const CELL_PAD = 3;
const SIZE = 7.5;
const ROW = 14;

/**
 * The statement as a PDF, in English or Hindi: a heading with the user, its type, the month's days and the opening
 * balances; a table of the lines (its heading row again on every page); the closing balances. Text cells are cut to
 * their column with an ellipsis; figures never are.
 */
export async function statementPdf(s: StatementDocument, lang: DocumentLanguage = 'en'): Promise<Uint8Array> {
  const words = textsOf(lang);
  const pdf = await documentPdf({
    title: `${words.title(s.user.name)} ${s.from.slice(0, 7)}`,
    lang,
    size: PAGE,
  });
  let y = PAGE[1] - MARGIN - 14;
  const balances = (label: string, b: StatementBalances) => {
    pdf.text(words.balances(label, rupees(b.balance, lang), rupees(b.clearing, lang)), MARGIN, y, 10, 'bold');
    y -= 16;
  };
  /** The cells of a row, each in its column: text cut to fit, figures right-aligned and whole. */
  const row = (cells: string[], weight: 'regular' | 'bold') => {
    let x = MARGIN;
    PDF_COLUMNS.forEach((column, i) => {
      const shown =
        column.right && weight === 'regular'
          ? cells[i]
          : pdf.fitted(cells[i], column.width - 2 * CELL_PAD, SIZE, weight);
      const left = column.right ? x + column.width - CELL_PAD - pdf.width(shown, SIZE, weight) : x + CELL_PAD;
      pdf.text(shown, left, y, SIZE, weight);
      x += column.width;
    });
  };
  const headingRow = () => {
    row(
      PDF_COLUMNS.map((c) => words.columns[c.heading]),
      'bold',
    );
    pdf.rule(MARGIN, PAGE[0] - MARGIN, y - 4);
    y -= ROW;
  };

  pdf.text(words.title(s.user.name), MARGIN, y, 14, 'bold');
  y -= 20;
  pdf.text(
    words.period(
      DOCUMENT_TEXTS[lang].userTypes[s.user.type] ?? '',
      indiaDay(s.from, lang),
      indiaDay(s.to, lang),
    ),
    MARGIN,
    y,
    10,
  );
  y -= 18;
  balances(words.opening, s.opening);
  y -= 4;
  headingRow();
  if (s.lines.length === 0) {
    pdf.text(words.empty, MARGIN + CELL_PAD, y, SIZE);
    y -= ROW;
  }
  for (const line of s.lines) {
    if (y < MARGIN + ROW) {
      pdf.addPage();
      y = PAGE[1] - MARGIN - 10;
      headingRow();
    }
    row(
      PDF_COLUMNS.map((c) => c.cell(line, lang)),
      'regular',
    );
    y -= ROW;
  }
  if (y < MARGIN + 20) {
    pdf.addPage();
    y = PAGE[1] - MARGIN - 14;
  }
  y -= 6;
  balances(words.closing, s.closing);
  return pdf.save();
}
