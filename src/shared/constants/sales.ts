// The sales constants both sides use, without zod so the sign-in page can import them (schemas re-export them).
import { MSG } from '../messages';
import { CATALOG_MSG } from './catalog';

/** The text after the account-opening URL's last '=' (seed section 4, Select Product). */
export const utmCodeOf = (url: string) => url.slice(url.lastIndexOf('=') + 1);

export const SALES_MSG = {
  // Seed section 5 (Select Product, Transaction list), verbatim.
  selectBoth: 'Please select both product and provider to proceed!',
  noProvider: 'No provider selected',
  selectUserTypeFirst: 'Please Select User Type First!',
  // Selling
  invalidCustomer: 'Invalid customer id',
  invalidProduct: 'Invalid product id',
  customerNotFound: 'Customer not found',
  productNotFound: CATALOG_MSG.productNotFound,
  savingAccountType: 'Account type must be PAYUSPRINT-SAVING',
  currentAccountType: 'Account type must be PAYUSPRINT-CURRENT or PAYUSPRINT-SOLE-PROPRIETOR',
  productAccountType: (accountType: string) => `This product opens ${accountType} accounts`,
  codeRequired: MSG.required,
  unknownOpening: 'Unknown utmCode: open the account through Select Product first',
  openingMerchantMismatch: "merchantCode does not match the partner's answer for this utmCode",
  openingOtherCustomer: 'This account opening was started for another customer',
  openingProductRequired: 'Choose the product this account opening is for',
  openingBoundToProduct: (opened: string, asked: string) =>
    `This account opening is for ${opened}; it cannot be recorded as ${asked}`,
  openingUnbound: 'This account opening names no product: open the account again through Select Product',
  utmCodeUsed: 'This utmCode has already been used',
  saleRecorded: 'Sale recorded. Complete the account opening in the new tab.',
  saleNotFound: 'Sale not found',
  receiptFormat: 'format must be html or pdf',
  idempotencyKeyInvalid: 'The Idempotency-Key header must be 1 to 200 visible characters',
  idempotencyKeyReused:
    'This Idempotency-Key was already used for a different sale: use a new key for a new sale',
  // Reopening a pending sale
  reopenNotPending: (status: string) => `This sale is ${status}: only a pending sale can be reopened`,
  reopenLinkMissing:
    "The partner's link for this sale was not kept: record a new sale through Select Product",
  // The partner
  partnerFailed: (status: number) => `The partner could not open the account (HTTP ${status})`,
  partnerUnreadable: "The partner's answer could not be read",
  partnerUnreachable: 'The partner could not be reached',
  partnerTimeout: 'The partner did not answer in time',
  partnerNotConfigured: 'The partner address is not configured (PROVIDER_BASE_URL)',
  partnerReusedCode: 'The partner answered with a utmCode it had issued before',
  // Callbacks
  signatureMissing: 'Missing provider signature',
  signatureInvalid: 'Invalid provider signature',
  signatureExpired: 'Provider signature is too old or too far in the future',
  callbackUnknownUtm: 'No sale found for this utmCode',
  callbackMerchantMismatch: 'merchantCode does not match the sale',
  failedAfterOpened: 'The account was already opened: the sale cannot fail now',
  openedAfterEnd: (status: string) => `The sale is ${status}: it cannot be opened now`,
  reverseNotConfirmed: 'Only a confirmed sale can be reversed',
  reversalShortfall: (name: string) =>
    `The sale cannot be reversed: the available balance of ${name} is lower than its share`,
  eventRecorded: 'Event recorded',
  eventReplayed: 'Event already processed',
  eventIdReused: 'This eventId was already used for a different event: each event needs its own eventId',
  // Wallets
  invalidUser: 'Invalid user id',
  settleWhom: 'Name one user (userId) to settle, or send all: true to settle everyone',
  settleAllOnly: 'all must be true to settle everyone',
  userNotFound: 'User not found',
  amount: CATALOG_MSG.amount,
  amountAboveBound: CATALOG_MSG.amountAboveBound,
  referenceRequired: 'A payout reference is required',
  referenceTooLong: 'A payout reference is at most 100 characters',
  payoutExceedsBalance: (available: string) => `Payout exceeds the available balance of ${available}`,
  referenceUsed: 'This reference was already used for another payout',
  payoutRecorded: 'Payout recorded',
  payoutReplayed: 'Payout already recorded under this reference',
  settled: (count: number) => `${count} commission${count === 1 ? '' : 's'} settled`,
  // Maker-checker (issue 43): pending commands and their decisions.
  payoutPending: 'Payout awaits approval by another admin: no money has moved yet',
  adjustmentPending: 'Adjustment awaits approval by another admin: no money has moved yet',
  adjustmentAmount: 'Amount must be a number of rupees other than 0, with at most 2 decimals',
  adjustmentReasonRequired: 'A reason for the adjustment is required',
  rejectionReasonRequired: 'A reason for the rejection is required',
  reasonTooLong: 'A reason is at most 500 characters',
  commandNotFound: 'Pending command not found',
  makerCannotDecide: 'You made this command: another admin must approve or reject it',
  alreadyApproved: 'This command was already approved',
  alreadyRejected: 'This command was already rejected',
  commandApproved: 'Approved: the money has moved',
  commandRejected: 'Rejected',
  adjustmentExceedsBalance: (available: string) => `Adjustment exceeds the available balance of ${available}`,
  // Independent checkers and the daily line (issue 51).
  tierUsersOnly: 'Payouts and adjustments are for master distributors, distributors and retailers only',
  payoutPendingDaily:
    'Payout awaits approval by another admin: your payouts today pass the daily line. No money has moved yet',
  adjustmentNoteRequired: 'A note for the statement is required',
  noteTooLong: 'A note is at most 100 characters',
} as const;
