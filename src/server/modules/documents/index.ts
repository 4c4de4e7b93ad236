/**
 * The documents module's face: every PDF Tierdesk writes (a sale's receipt, a month's statement, a TDS
 * certificate) and the receipt's printable page, in English or Hindi, with the panel's formats (src/shared/format)
 * and fonts that draw Latin and Devanagari names alike. The modules that own the data (sales, statements, ledger)
 * hand it here; this module reads no database.
 */
export {
  receiptFileName,
  receiptHtml,
  receiptPdf,
  type SaleReceipt,
} from './receipt';
export { type StatementDocument, statementPdf } from './statement';
export { tdsCertificatePdf } from './tds-certificate';
