import { z } from 'zod';
import type { UserCountKey } from './constants/dashboard';
import { USER_COUNT_KEYS } from './constants/dashboard';
import { UserStatus, UserType } from './enums';
import { COMMAND_KINDS, COMMAND_STATUSES } from './schemas/approvals';
import { isoTime } from './schemas/dates';

export type { UserCountKey, UserCounts } from './constants/dashboard';
// Zod-free (the sign-in page imports them without zod); re-exported so the server's imports stay.
export { DASHBOARD_TILES, USER_COUNT_KEYS } from './constants/dashboard';

/**
 * The wire contract's shapes (docs/api.md), as zod schemas with their inferred types. The server declares
 * them as its routes' response schemas (so the OpenAPI document at /api/docs shows them and answers are
 * serialized through them); the panel imports the types. Objects are strict: a field the schema does not name
 * fails the answer (the generic 500, server/app.ts) instead of silently vanishing.
 */

/** Success envelope of every call: `{ result, message? }`. */
export interface Envelope<T> {
  result: T;
  message?: string;
}
/** The envelope as a response schema. */
export const envelope = <S extends z.ZodType>(result: S) =>
  z.strictObject({ result, message: z.string().optional() });

/**
 * Set (true) when a list's total was counted only up to COUNT_CAP (1,000) rows: `totalCounts` is then the cap
 * and means "at least" (the panel's pager says "1,000+"). Absent when the total is exact.
 */
export const totalCountsCappedSchema = z.literal(true).optional();

/** A list answer: the page under the seed's key, and `totalCounts` beside it. */
export const listEnvelope = <K extends string, S extends z.ZodType>(key: K, item: S) =>
  envelope(
    z.strictObject({
      [key]: z.array(item),
      totalCounts: z.number(),
      totalCountsCapped: totalCountsCappedSchema,
    } as { [P in K]: z.ZodArray<S> } & {
      totalCounts: z.ZodNumber;
      totalCountsCapped: typeof totalCountsCappedSchema;
    }),
  );

/**
 * Failure body of every call. `result` only on the sign-in refusal that asks for the second step (401,
 * `{ mfaRequired: true }`): the client then asks for the code and signs in again with it.
 */
export const errorBodySchema = z.strictObject({
  message: z.string(),
  errors: z.array(z.strictObject({ msg: z.string(), param: z.string() })).optional(),
  result: z.strictObject({ mfaRequired: z.literal(true) }).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

const id = z.string().describe('uuid');

export const namedRefSchema = z.strictObject({ _id: id, name: z.string() });
export type NamedRef = z.infer<typeof namedRefSchema>;

export const userTypeSchema = z
  .enum(UserType)
  .describe('ADMIN 0, CUSTOMER 1, MASTER_DISTRIBUTOR 2, DISTRIBUTOR 3, RETAILER 4, EMPLOYEE 5');

export const distributorInfoSchema = z.strictObject({
  isMaster: z.boolean(),
  distributorCode: z.string().nullable().optional(),
  masterDistributorCommission: z.string().nullable().optional(),
  masterDistributorId: id.nullable().optional(),
});
export type DistributorInfo = z.infer<typeof distributorInfoSchema>;

/** A user in the seed's nested wire shape (seed section 3, docs/api.md, Conventions). */
export const wireUserSchema = z.strictObject({
  _id: id,
  name: z.string(),
  email: z.strictObject({ address: z.string().nullable() }),
  mobile: z.strictObject({ number: z.string().nullable() }),
  userName: z.strictObject({ id: z.string() }),
  type: userTypeSchema,
  status: z.enum(UserStatus),
  districtId: id.nullable(),
  tehsilId: id.nullable(),
  district: z.array(namedRefSchema),
  tehsil: z.array(namedRefSchema),
  wallet: z.strictObject({ balance: z.number(), clearingBalance: z.number() }),
  /** ISO time of the user's own password choice; null until the initial password is replaced. */
  passwordUpdatedAt: isoTime.nullable(),
  createdAt: isoTime,
  /** Tier users (types 2, 3, 4): the PAN, or null when none was given (TDS is then withheld at the higher rate). */
  panId: z.string().nullable().optional(),
  /**
   * Master distributors: `{ isMaster, distributorCode, masterDistributorCommission }`; distributors:
   * `{ isMaster: false, masterDistributorId }`; retailers: the looked-up distributor `[{ _id, name }]`.
   */
  distributor: z.union([distributorInfoSchema, z.array(namedRefSchema)]).optional(),
  /** Retailers: their distributor and, for the edit form, that distributor's master distributor. */
  retailer: z
    .union([
      z.strictObject({ distributorId: id.nullable(), masterDistributorId: id.nullable() }),
      z.array(namedRefSchema),
    ])
    .optional(),
  /** Customers: the Aadhar number only masked (`XXXXXXXX1234`). */
  customer: z
    .strictObject({
      aadharId: z.string().nullable(),
      panId: z.string().nullable(),
      retailerId: id.nullable(),
    })
    .optional(),
  /** Looked-up parents for the list columns: master distributor on distributor and retailer rows. */
  master_distributor: z.array(namedRefSchema).optional(),
  /** The signed-in person's own record only (login, account/fetch of oneself): its second step (TOTP) is on. */
  mfaEnabled: z.boolean().optional(),
  /**
   * The signed-in person's own record only: a second step is required (MFA_REQUIRED_FOR, or set for this person)
   * and not on yet, so nothing but its set-up, a password change and signing out is allowed.
   */
  mfaSetupRequired: z.boolean().optional(),
});
export type WireUser = z.infer<typeof wireUserSchema>;

export const loginResultSchema = z.strictObject({ token: z.string(), user: wireUserSchema });
export type LoginResult = z.infer<typeof loginResultSchema>;

/** `account/mfa/setup`: the new TOTP secret (base32) and the otpauth:// URI an authenticator app reads (the QR). */
export const mfaSetupResultSchema = z.strictObject({ secret: z.string(), otpauthUri: z.string() });
export type MfaSetupResult = z.infer<typeof mfaSetupResultSchema>;

/** `account/mfa/enable`: the recovery codes, shown this once (only their keyed hashes are kept). */
export const recoveryCodesResultSchema = z.strictObject({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResult = z.infer<typeof recoveryCodesResultSchema>;

/** One of the caller's sessions (`account/sessions`): never its token. */
export const wireSessionSchema = z.strictObject({
  _id: id,
  createdAt: isoTime,
  /** Updated at most once a minute. */
  lastSeenAt: isoTime,
  /** The address it was last seen from. */
  ip: z.string().nullable(),
  /** The User-Agent it signed in with (the browser). */
  userAgent: z.string().nullable(),
  /** The session this call was made with. */
  current: z.boolean(),
});
export type WireSession = z.infer<typeof wireSessionSchema>;

export const userFetchResultSchema = z.strictObject({
  users: z.array(wireUserSchema),
  totalCounts: z.number(),
  totalCountsCapped: totalCountsCappedSchema,
});
export type UserFetchResult = z.infer<typeof userFetchResultSchema>;

export const userCountsSchema = z.strictObject(
  Object.fromEntries(USER_COUNT_KEYS.map((key) => [key, z.number()])) as Record<UserCountKey, z.ZodNumber>,
);

export const wireStateSchema = z.strictObject({ _id: id, name: z.string(), createdAt: isoTime });
export type WireState = z.infer<typeof wireStateSchema>;
/** `stateId` is populated with the state's name for the list column. */
export const wireDistrictSchema = z.strictObject({
  _id: id,
  name: z.string(),
  stateId: namedRefSchema,
  createdAt: isoTime,
});
export type WireDistrict = z.infer<typeof wireDistrictSchema>;
export const wireTehsilSchema = z.strictObject({
  _id: id,
  name: z.string(),
  districtId: namedRefSchema,
  stateId: namedRefSchema,
  createdAt: isoTime,
});
export type WireTehsil = z.infer<typeof wireTehsilSchema>;
export const wireProviderSchema = z.strictObject({ _id: id, name: z.string(), createdAt: isoTime });
export type WireProvider = z.infer<typeof wireProviderSchema>;
/** Amount in rupees and commissions in percent, as JSON numbers with at most two decimals. */
export const wireProductSchema = z.strictObject({
  _id: id,
  name: z.string(),
  providerId: namedRefSchema,
  amount: z.number(),
  adminCommission: z.number(),
  masterDistributorCommission: z.number(),
  distributorCommission: z.number(),
  retailerCommission: z.number(),
  customerCommission: z.number(),
  url: z.string(),
  urlParams: z.strictObject({ reqType: z.enum(['GET', 'POST']), data: z.string() }),
  createdAt: isoTime,
});
export type WireProduct = z.infer<typeof wireProductSchema>;

/** An onboarding application: list columns; fetched by `_id` also its six sections (Aadhar masked) and files. */
const section = z.record(z.string(), z.unknown()).optional();
export const wireLeadSchema = z.strictObject({
  _id: id,
  leadType: z.string(),
  status: z.string(),
  applicantName: z.string(),
  establishmentName: z.string(),
  mobile: z.string(),
  state: z.array(namedRefSchema),
  district: z.array(namedRefSchema),
  tehsil: z.array(namedRefSchema),
  userId: id.nullable(),
  decidedBy: id.nullable(),
  decidedAt: isoTime.nullable(),
  rejectReason: z.string().nullable(),
  createdAt: isoTime,
  applicantInfo: section,
  businessInfo: section,
  permanentAddress: section,
  otherBusinessInfo: section,
  bankInfo: section,
  identityProof: section,
  picture: z.strictObject({ mime: z.string(), size: z.number(), url: z.string() }).optional(),
  document: z
    .strictObject({ mime: z.string(), size: z.number(), name: z.string(), url: z.string() })
    .optional(),
});
export type WireLead = z.infer<typeof wireLeadSchema>;

// Selling and the ledger (issue 9) -------------------------------------------------------------------------

/** `payusprint/*` answer (seed section 7): the account-opening URL and the partner's merchant code. */
export const accountOpeningResultSchema = z.strictObject({
  result: z.strictObject({ data: z.string() }),
  merchantCode: z.string(),
});
export type AccountOpeningResult = z.infer<typeof accountOpeningResultSchema>;

/** `GET bought_products/opening/:id` answer: the partner's link of a pending sale, to reopen it. */
export const openingLinkSchema = z.strictObject({ url: z.string() });

const tier = z.enum(['ADMIN', 'MASTER_DISTRIBUTOR', 'DISTRIBUTOR', 'RETAILER', 'CUSTOMER']);

/** One tier's share of a sale, frozen when the sale is recorded. A missing tier's share goes to admin. */
export const wireShareSchema = z.strictObject({
  tier,
  /** Percent of the amount (two decimals). */
  percent: z.number(),
  /** Rupees. */
  amount: z.number(),
  /** Who receives it (admin when the tier is missing). */
  user: namedRefSchema,
});
export type WireShare = z.infer<typeof wireShareSchema>;

/** The populated user of a transaction row (seed section 3, Transaction: userId populated). */
export const wireTransactionUserSchema = z.strictObject({
  _id: id,
  name: z.string(),
  email: z.strictObject({ address: z.string().nullable() }),
  mobile: z.strictObject({ number: z.string().nullable() }),
  type: userTypeSchema,
});
export type WireTransactionUser = z.infer<typeof wireTransactionUserSchema>;

/** A posting: one immutable change of one wallet. Amounts and balances in rupees. */
export const wireTransactionSchema = z.strictObject({
  _id: id,
  userId: wireTransactionUserSchema,
  amount: z.number(),
  transactionType: z.enum(['CREDIT', 'DEBIT']),
  /** Which balance moved. */
  balanceType: z.enum(['CLEARING', 'AVAILABLE']),
  kind: z.enum(['COMMISSION', 'SETTLEMENT', 'REVERSAL', 'PAYOUT', 'TDS', 'ADJUSTMENT']),
  status: z.enum(['CLEARING', 'SETTLED', 'REVERSED', 'PAID', 'WITHHELD', 'ADJUSTED']),
  /** The wallet's balances right after this posting. */
  balance: z.number(),
  clearingBalance: z.number(),
  /** Commission postings: whose share it is. */
  tier: tier.nullable(),
  boughtProductId: id.nullable(),
  /** Settlements and reversals: the commission posting they settle or reverse. */
  refPostingId: id.nullable(),
  /** Payouts: the reference given by the admin. */
  reference: z.string().nullable(),
  createdAt: isoTime,
  /** A sale's posting in a list: the sale's reference (its utmCode), null for the others. */
  saleReference: z.string().nullable().optional(),
});
export type WireTransaction = z.infer<typeof wireTransactionSchema>;

/**
 * The money into and out of the wallets (rupees) of a postings list's whole filter, not its page (issue 43):
 * commissions, adjustments, payouts, reversals and TDS. Settlements, which move money from a wallet's clearing
 * balance to its available balance, count in neither (issue 53).
 */
export const postingTotalsSchema = z.strictObject({ moneyIn: z.number(), moneyOut: z.number() });
export type WirePostingTotals = z.infer<typeof postingTotalsSchema>;

/** `GET transactions/fetch`: a page of postings, their count and the totals of the whole filter. */
export const transactionsFetchResultSchema = z.strictObject({
  transactions: z.array(wireTransactionSchema),
  totalCounts: z.number(),
  totals: postingTotalsSchema,
  totalCountsCapped: totalCountsCappedSchema,
});

/**
 * A pending command (maker-checker, issues 43 and 51): a money command (a payout or an adjustment of a tier user's
 * wallet) or a power command (making an admin, resetting another admin's password or second step) waiting for an
 * admin who is neither its maker nor the person it is for. `user` is whom it is for (null for a new admin until it
 * is approved; `details` names that admin meanwhile). `amount` is rupees for money commands (an adjustment's is
 * signed: below zero a debit), null for the others; `postingId` is the posting an approved money command wrote.
 * `note` is an adjustment's text for the statement, `reason` the maker's reason (for staff only).
 */
export const wireCommandSchema = z.strictObject({
  _id: id,
  kind: z.enum(COMMAND_KINDS),
  status: z.enum(COMMAND_STATUSES),
  user: z.strictObject({ _id: id, name: z.string(), type: userTypeSchema }).nullable(),
  amount: z.number().nullable(),
  reference: z.string().nullable(),
  note: z.string().nullable(),
  reason: z.string().nullable(),
  details: z
    .strictObject({
      name: z.string(),
      userName: z.string(),
      email: z.string().nullable(),
      mobile: z.string().nullable(),
    })
    .nullable(),
  maker: namedRefSchema,
  checker: namedRefSchema.nullable(),
  rejectionReason: z.string().nullable(),
  postingId: id.nullable(),
  createdAt: isoTime,
  decidedAt: isoTime.nullable(),
});
export type WireCommand = z.infer<typeof wireCommandSchema>;

/**
 * `approvals/approve/:id`'s answer: the command as decided and, for an approved admin creation or password reset,
 * the one-time password, given once to the checker (never stored in clear, never in any other answer).
 */
export const approvedCommandSchema = wireCommandSchema.extend({ oneTimePassword: z.string().optional() });
export type ApprovedCommand = z.infer<typeof approvedCommandSchema>;

/** `approvals/admins`: how many admins the network has (one: nobody can check that admin's own commands). */
export const adminCountSchema = z.strictObject({ admins: z.number() });

/** A bought product (seed section 3) with the amount, commissions and split frozen when it was recorded. */
export const wireSaleSchema = z.strictObject({
  _id: id,
  status: z.enum(['PENDING', 'CONFIRMED', 'FAILED', 'REVERSED']),
  utmCode: z.string(),
  merchantCode: z.string(),
  accountType: z.string().nullable(),
  /** Rupees. */
  amount: z.number(),
  split: z.array(wireShareSchema),
  customerId: namedRefSchema,
  retailerId: namedRefSchema.nullable(),
  productId: namedRefSchema.extend({ providerId: namedRefSchema }).strict(),
  soldBy: namedRefSchema,
  createdAt: isoTime,
  confirmedAt: isoTime.nullable(),
  failedAt: isoTime.nullable(),
  reversedAt: isoTime.nullable(),
  /** Only when one sale is fetched by `_id`: its postings, oldest first. */
  postings: z.array(wireTransactionSchema).optional(),
});
export type WireSale = z.infer<typeof wireSaleSchema>;

export const wireWalletSchema = z.strictObject({ balance: z.number(), clearingBalance: z.number() });
export type WireWallet = z.infer<typeof wireWalletSchema>;

/** `GET wallet/fetch`: the caller's own wallet and postings. */
export const walletFetchResultSchema = z.strictObject({
  wallet: wireWalletSchema,
  transactions: z.array(wireTransactionSchema),
  totalCounts: z.number(),
  /** The money in and out of the whole filter. */
  totals: postingTotalsSchema,
  totalCountsCapped: totalCountsCappedSchema,
});
export type WalletFetchResult = z.infer<typeof walletFetchResultSchema>;

/** `GET report/commissions`: commissions credited in the caller's network (rupees). */
export const commissionReportSchema = z.strictObject({
  today: z.number(),
  month: z.number(),
  clearing: z.number(),
});
export type CommissionReport = z.infer<typeof commissionReportSchema>;

/** `POST wallet/settle` answer. */
export const settleResultSchema = z.strictObject({
  settled: z.number(),
  amount: z.number(),
  users: z.number(),
});
export type SettleResult = z.infer<typeof settleResultSchema>;

/** `GET ledger/reconcile` and `npm run reconcile`. */
export const reconcileReportSchema = z.strictObject({
  ok: z.boolean(),
  checkedAt: isoTime,
  sales: z.strictObject({ confirmed: z.number(), reversed: z.number() }),
  postings: z.number(),
  wallets: z.number(),
  /**
   * Sum of every wallet, rupees; `owed`: what wallets owe the network (the sum of the available balances below
   * zero, written as a positive amount; 0 when none owes), left by reversals of money already paid out.
   */
  totals: z.strictObject({ balance: z.number(), clearingBalance: z.number(), owed: z.number() }),
  breaks: z.array(z.strictObject({ check: z.string(), detail: z.string() })),
});
export type ReconcileReport = z.infer<typeof reconcileReportSchema>;

/** `POST bought_products/callback` answer. */
export const callbackAnswerSchema = z.strictObject({
  eventId: z.string(),
  boughtProductId: id,
  status: z.enum(['PENDING', 'CONFIRMED', 'FAILED', 'REVERSED']),
});

// The audit trail (issue 10) ----------------------------------------------------------------------------------

/** Who made an audited change: a user (`_id`, `type`), or the partner, the system or the public (no `_id`). */
export const wireAuditActorSchema = z.strictObject({
  _id: id.nullable(),
  name: z.string(),
  type: userTypeSchema.nullable(),
  kind: z.enum(['USER', 'PARTNER', 'SYSTEM', 'PUBLIC']),
});
export type WireAuditActor = z.infer<typeof wireAuditActorSchema>;

const changedFields = z.record(z.string(), z.unknown()).nullable();

/** One audit row: the changed fields before and after (personal data masked), newest first in lists. */
export const wireAuditEntrySchema = z.strictObject({
  _id: id,
  actor: wireAuditActorSchema,
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  before: changedFields,
  after: changedFields,
  ip: z.string().nullable(),
  createdAt: isoTime,
});
export type WireAuditEntry = z.infer<typeof wireAuditEntrySchema>;
