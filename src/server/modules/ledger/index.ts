/**
 * The ledger module's face: wallets and their immutable, sealed postings (the one way money moves), the commands
 * that move it (a sale's commissions, payouts, adjustments, the settlement job), and the reconciliation that proves
 * the books. Other modules move money only through these commands: the write primitives (lockWallets,
 * writePostings, chainPosting) stay inside the ledger (tests/server/layering.test.ts).
 */
export { adjustIn } from './adjustment';
export { creditCommissions, reverseCommissions, type SaleShares } from './commissions';
export {
  businessDayOf,
  followRetailerMoves,
  holdWallets,
  openWallet,
  openWallets,
  type PostingRow,
} from './ledger';
export {
  foldedReference,
  lockPayoutMaker,
  lockPayoutReference,
  payoutByReference,
  payoutIn,
  recordPayout,
  refuseAboveAvailable,
  replayPayout,
  unapprovedPayoutsToday,
} from './payout';
export { listTransactionsOf, toWireTransaction, walletOf } from './queries';
export { owedPaise, reconcile, sealsVerify } from './reconcile';
export { default as ledgerRoutes } from './routes';
export { previewSettle, settle, startSettlementJob } from './settlement';
