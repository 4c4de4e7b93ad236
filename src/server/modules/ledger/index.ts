/**
 * The ledger module's face: wallets and their immutable, sealed postings (the one way money moves), payouts,
 * the settlement job, and the reconciliation that proves the books.
 */
export {
  businessDayOf,
  chainPosting,
  InsufficientBalance,
  type LockedWallet,
  loadPostings,
  loadWallets,
  lockWallets,
  openWallet,
  type PostingDraft,
  type PostingRow,
  post,
  rebuildNetworkMoney,
  rebuildPostingTotals,
  writePostings,
} from './ledger';
export {
  foldedReference,
  lockPayoutReference,
  payoutByReference,
  payoutIn,
  recordPayout,
  replayPayout,
} from './payout';
export { listTransactionsOf, toWireTransaction } from './queries';
export { reconcile } from './reconcile';
export { default as ledgerRoutes } from './routes';
export { settle, startSettlementJob } from './settlement';
export { recordReturnedTds, tdsReturnDrafts } from './tds';
export { default as tdsRoutes } from './tds-routes';
