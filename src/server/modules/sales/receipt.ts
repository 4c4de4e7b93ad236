import { eq } from 'drizzle-orm';
import { formatRupees, titleCase } from '../../../shared/format';
import { maskMobile } from '../../../shared/identity';
import { type ReceiptLanguage, SALES_MSG } from '../../../shared/schemas/sales';
import type { WireSale } from '../../../shared/wire';
import type { Queryable } from '../../db/open';
import { users } from '../../db/schema';
import { notFound } from '../../http/errors';
import { escapeHtml } from '../../http/html';
import type { SessionUser } from '../account/index';
import { pdfRupees, textPdf } from '../ledger/index';
import { listSales } from './queries';

/** The product's name on a receipt, as on the TDS certificate. */
export const RECEIPT_BRAND = 'Tierdesk';

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
 * One sale's receipt, for whoever may read the sale: bounded by the caller's network exactly as
 * `bought_products/fetch?_id=` (staff any sale; a retailer its own; a distributor or master distributor the sales in
 * its network). Any other sale is not found.
 */
export async function saleReceipt(db: Queryable, viewer: SessionUser, id: string): Promise<SaleReceipt> {
  const { sales } = await listSales(db, viewer, { id }, { limit: 1, offset: 0 });
  const [sale] = sales;
  if (!sale) throw notFound(SALES_MSG.saleNotFound);
  const [customer] = await db
    .select({ mobile: users.mobile })
    .from(users)
    .where(eq(users.id, sale.customerId._id));
  const statusAt = sale.reversedAt ?? sale.failedAt ?? sale.confirmedAt;
  return {
    id: sale._id,
    reference: sale.utmCode,
    merchantCode: sale.merchantCode,
    product: sale.productId.name,
    provider: sale.productId.providerId.name,
    accountType: sale.accountType ?? '',
    customer: sale.customerId.name,
    mobile: customer?.mobile ? maskMobile(customer.mobile) : null,
    retailer: sale.retailerId?.name ?? null,
    amount: sale.amount,
    status: sale.status,
    recordedAt: new Date(sale.createdAt),
    statusAt: statusAt ? new Date(statusAt) : null,
  };
}

/** A receipt's words, in the language the page is asked in (the panel's); the PDF uses the English ones. */
const WORDS = {
  en: {
    title: 'Sale receipt',
    document: 'Receipt',
    status: {
      PENDING: { label: 'Pending: the account opening is not finished yet', at: '' },
      CONFIRMED: { label: 'Confirmed', at: 'Confirmed at' },
      FAILED: { label: 'Failed: the account was not opened', at: 'Failed at' },
      REVERSED: { label: 'Reversed', at: 'Reversed at' },
    },
    labels: {
      reference: 'Reference',
      status: 'Status',
      amount: 'Amount',
      product: 'Product',
      provider: 'Provider',
      accountType: 'Account type',
      customer: 'Customer',
      mobile: 'Customer mobile',
      retailer: 'Retailer',
      merchantCode: 'Merchant code',
      recordedAt: 'Recorded at',
    },
    footer: 'Keep this receipt: quote the reference for any question about this sale.',
    zone: 'IST',
  },
  hi: {
    title: 'बिक्री की रसीद',
    document: 'रसीद',
    status: {
      PENDING: { label: 'लंबित: खाता खुलना अभी पूरा नहीं हुआ', at: '' },
      CONFIRMED: { label: 'पुष्ट', at: 'पुष्टि का समय' },
      FAILED: { label: 'विफल: खाता नहीं खुला', at: 'विफल होने का समय' },
      REVERSED: { label: 'वापस लिया गया', at: 'वापस लेने का समय' },
    },
    labels: {
      reference: 'संदर्भ',
      status: 'स्थिति',
      amount: 'राशि',
      product: 'उत्पाद',
      provider: 'प्रोवाइडर',
      accountType: 'खाते का प्रकार',
      customer: 'ग्राहक',
      mobile: 'ग्राहक का मोबाइल',
      retailer: 'रिटेलर',
      merchantCode: 'मर्चेंट कोड',
      recordedAt: 'दर्ज करने का समय',
    },
    footer: 'यह रसीद रखें: इस बिक्री के किसी भी प्रश्न के लिए संदर्भ बताएँ।',
    zone: 'भारतीय समय',
  },
} satisfies Record<ReceiptLanguage, unknown>;

/** A moment in India's time, as a receipt shows it: '26 Nov 2026, 5:03 pm IST'. */
const INDIA_TIME = {
  en: new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' }),
  hi: new Intl.DateTimeFormat('hi-IN', {
    dateStyle: 'medium',
    timeStyle: 'short',
    hourCycle: 'h23',
    timeZone: 'Asia/Kolkata',
  }),
};
export const receiptTime = (at: Date, lang: ReceiptLanguage = 'en') =>
  `${INDIA_TIME[lang].format(at)} ${WORDS[lang].zone}`;

/** The receipt's facts in reading order, as label and text (the page and the PDF show the same). */
function receiptLines(
  receipt: SaleReceipt,
  money: (rupees: number) => string,
  lang: ReceiptLanguage = 'en',
): [string, string][] {
  const words = WORDS[lang];
  const status = words.status[receipt.status];
  const label = words.labels;
  return [
    [label.reference, receipt.reference],
    [label.status, status.label],
    [label.amount, money(receipt.amount)],
    [label.product, titleCase(receipt.product)],
    [label.provider, titleCase(receipt.provider)],
    [label.accountType, receipt.accountType],
    [label.customer, titleCase(receipt.customer)],
    [label.mobile, receipt.mobile ?? '-'],
    ...(receipt.retailer ? [[label.retailer, titleCase(receipt.retailer)] as [string, string]] : []),
    [label.merchantCode, receipt.merchantCode],
    [label.recordedAt, receiptTime(receipt.recordedAt, lang)],
    ...(receipt.statusAt && status.at
      ? [[status.at, receiptTime(receipt.statusAt, lang)] as [string, string]]
      : []),
  ];
}

/**
 * The receipt as a page of its own: no script, one inline style sheet (the server's content policy allows inline
 * styles only), a narrow card on screen and the plain card on paper. Every value is escaped.
 */
export function receiptHtml(receipt: SaleReceipt, lang: ReceiptLanguage = 'en'): string {
  const words = WORDS[lang];
  const rows = receiptLines(receipt, (rupees) => formatRupees(rupees, lang), lang)
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

/** The receipt as a PDF: the same lines (textPdf, uncompressed, so a test reads them back). */
export async function receiptPdf(receipt: SaleReceipt): Promise<Uint8Array> {
  const pdf = await textPdf(`Receipt ${receipt.reference} - ${RECEIPT_BRAND}`);
  pdf.write(RECEIPT_BRAND, 18, true);
  pdf.write(WORDS.en.title, 13, true);
  pdf.gap(8);
  for (const [label, text] of receiptLines(receipt, pdfRupees)) pdf.write(`${label}: ${text}`, 11);
  pdf.gap(8);
  pdf.write(WORDS.en.footer, 9);
  return pdf.save();
}

/** A file name from a reference: its letters, digits, dots, dashes and underscores only. */
export const receiptFileName = (receipt: SaleReceipt, extension: 'html' | 'pdf') =>
  `receipt-${receipt.reference.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 80)}.${extension}`;
