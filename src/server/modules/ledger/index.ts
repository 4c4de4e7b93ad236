/**
 * The ledger module's face: wallets and their immutable, sealed postings (the one way money moves), payouts,
 * the settlement job, and the reconciliation that proves the books.
 */
export {
  businessDayOf,
  InsufficientBalance,
  lockWallets,
  NETWORK_CLEARING,
  NETWORK_COMMISSION_DAYS,
  openWallet,
  type PostingDraft,
  post,
  writePostings,
} from './ledger';
export { recordPayout } from './payout';
export { listTransactionsOf } from './queries';
export { reconcile } from './reconcile';
export { default as ledgerRoutes } from './routes';
export { sealPosting } from './seal';
export { settle, startSettlementJob } from './settlement';
