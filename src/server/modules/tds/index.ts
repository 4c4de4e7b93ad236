/**
 * The TDS module's face (section 194H, issue 43): the rule of what a settlement withholds and gives back, TDS
 * payable and its entries, challan deposits, the quarter's deductees (Form 26Q) and certificates (Form 16A). The
 * tax's postings are the ledger's: its settlement and reversals call taxDue and taxToReturn, and record them here.
 */
export { tdsPayable } from './reports';
export { default as tdsRoutes } from './routes';
export {
  recordReturned,
  recordWithheld,
  TDS_PAYABLE,
  taxDue,
  taxToReturn,
} from './tds';
