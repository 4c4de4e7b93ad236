/**
 * The ledger module's face: wallets and their immutable, sealed postings (the one way money moves), payouts,
 * the settlement job, and the reconciliation that proves the books.
 */
export { default as booksRoutes } from './books-routes';
export {
  businessDayOf,
  chainPosting,
  InsufficientBalance,
  type LockedWallet,
  loadPostings,
  loadWallets,
  lockWallets,
  openWallet,
  openWallets,
  type PostingDraft,
  type PostingRow,
  post,
  rebuildNetworkMoney,
  rebuildPostingTotals,
  writePostings,
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
export { latestReconcileRun, reconcileAndRecord, recordReconcileRun } from './reconcile-runs';
export { default as ledgerRoutes } from './routes';
export { previewSettle, settle, startSettlementJob } from './settlement';
export { recordReturnedTds, tdsReturnDrafts } from './tds';
export { tdsPayable } from './tds-reports';
export { default as tdsRoutes } from './tds-routes';
