import type { DocumentLanguage } from '../../../shared/constants/documents';
import { formatRupees, titleCase } from '../../../shared/format';
import type { WireSale } from '../../../shared/wire';
import { escapeHtml } from '../../http/html';
import { textPdf } from './pdf';
import { DOCUMENT_TEXTS } from './texts';
import { indiaTime } from './time';

/** The product's name on a receipt, as on the TDS certificate. */
const RECEIPT_BRAND = 'Tierdesk';

/** What a customer is given for a sale: its reference, product, customer (mobile masked), amount, status, times. */
export interface SaleReceipt {
  id: string;
  reference: string;
  merchantCode: string;
  product: string;
  provider: string;
  accountType: string;
  customer: string;
  /** The customer's mobile number masked as the audit trail masks it (`98XXXXXX10`); null when it has none. */
  mobile: string | null;
  retailer: string | null;
  amount: number;
  status: WireSale['status'];
  recordedAt: Date;
  /** When the status was reached (confirmed, failed or reversed); null while pending. */
  statusAt: Date | null;
}

/**
 * A time's label as a receipt shows it: the time itself is the panel's medium date and time ('Nov 26, 2026,
 * 5:03:05 PM'), in India's time, which its label says ('Recorded at (IST)').
 */
const timeLabel = (label: string, lang: DocumentLanguage) => `${label} (${DOCUMENT_TEXTS[lang].zone})`;

/** The receipt's facts in reading order, as label and text (the page and the PDF show the same). */
function receiptLines(receipt: SaleReceipt, lang: DocumentLanguage): [string, string][] {
  const words = DOCUMENT_TEXTS[lang].receipt;
  const status = words.status[receipt.status];
  const label = words.labels;
  return [
    [label.reference, receipt.reference],
    [label.status, status.label],
    [label.amount, formatRupees(receipt.amount, lang)],
    [label.product, titleCase(receipt.product)],
    [label.provider, titleCase(receipt.provider)],
    [label.accountType, words.accountTypes[receipt.accountType] ?? receipt.accountType],
    [label.customer, titleCase(receipt.customer)],
    [label.mobile, receipt.mobile ?? '-'],
    ...(receipt.retailer ? [[label.retailer, titleCase(receipt.retailer)] as [string, string]] : []),
    [label.merchantCode, receipt.merchantCode],
    [timeLabel(label.recordedAt, lang), indiaTime(receipt.recordedAt, lang)],
    ...(receipt.statusAt && status.at
      ? [[timeLabel(status.at, lang), indiaTime(receipt.statusAt, lang)] as [string, string]]
      : []),
  ];
}

/**
 * The receipt as a page of its own: no script, one inline style sheet (the server's content policy allows inline
 * styles only), a narrow card on screen and the plain card on paper. Every value is escaped.
 */
export function receiptHtml(receipt: SaleReceipt, lang: DocumentLanguage = 'en'): string {
  const words = DOCUMENT_TEXTS[lang].receipt;
  const rows = receiptLines(receipt, lang)
    .map(([label, text]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(text)}</dd>`)
    .join('\n');
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${words.document} ${receipt.reference} - ${RECEIPT_BRAND}`)}</title>
<style>
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #f4f4f5; color: #18181b;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Devanagari", sans-serif; }
main { max-width: 30rem; margin: 1.5rem auto; padding: 1.5rem; background: #fff;
  border: 1px solid #d4d4d8; border-radius: 8px; }
header { text-align: center; border-bottom: 2px dashed #a1a1aa; padding-bottom: 0.75rem; margin-bottom: 1rem; }
.brand { margin: 0; font-size: 1.5rem; font-weight: 700; letter-spacing: 0.02em; }
h1 { margin: 0.25rem 0 0; font-size: 1.125rem; font-weight: 600; }
.amount { margin: 0 0 1rem; text-align: center; font-size: 2rem; font-weight: 700; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.4rem 1rem; margin: 0; }
dt { color: #52525b; }
dd { margin: 0; font-weight: 600; text-align: right; overflow-wrap: anywhere; }
footer { margin-top: 1rem; padding-top: 0.75rem; border-top: 2px dashed #a1a1aa; color: #52525b;
  font-size: 0.875rem; text-align: center; }
@media (max-width: 30rem) { main { margin: 0; border: 0; border-radius: 0; } }
@media print {
  @page { margin: 12mm; }
  body { background: #fff; }
  main { max-width: 24rem; margin: 0 auto; padding: 0; border: 0; }
}
</style>
</head>
<body>
<main>
<header>
<p class="brand">${escapeHtml(RECEIPT_BRAND)}</p>
<h1>${escapeHtml(words.title)}</h1>
</header>
<p class="amount">${escapeHtml(formatRupees(receipt.amount, lang))}</p>
<dl>
${rows}
</dl>
<footer>${escapeHtml(words.footer)}</footer>
</main>
</body>
</html>
`;
}

/** The receipt as a PDF: the same lines as the page, in the same language. */
export async function receiptPdf(receipt: SaleReceipt, lang: DocumentLanguage = 'en'): Promise<Uint8Array> {
  const words = DOCUMENT_TEXTS[lang].receipt;
  const pdf = await textPdf(`${words.document} ${receipt.reference} - ${RECEIPT_BRAND}`, lang);
  pdf.write(RECEIPT_BRAND, 18, 'bold');
  pdf.write(words.title, 13, 'bold');
  pdf.gap(8);
  for (const [label, text] of receiptLines(receipt, lang)) pdf.write(`${label}: ${text}`, 11);
  pdf.gap(8);
  pdf.write(words.footer, 9);
  return pdf.save();
}

/** A file name from a reference: its letters, digits, dots, dashes and underscores only. */
export const receiptFileName = <E extends 'html' | 'pdf'>(
  receipt: SaleReceipt,
  extension: E,
): `${string}.${E}` =>
  `receipt-${receipt.reference.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 80)}.${extension}`;
