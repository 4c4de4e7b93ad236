import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

// Names are unique under their parent, ignoring case (the unique indexes back the routes' 409s under races).
export const states = pgTable(
  'states',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('states_name_key').on(sql`lower(${t.name})`),
    index('states_created_idx').on(t.createdAt),
  ],
);

export const districts = pgTable(
  'districts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    stateId: uuid('state_id')
      .notNull()
      .references(() => states.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('districts_state_idx').on(t.stateId),
    uniqueIndex('districts_state_name_key').on(t.stateId, sql`lower(${t.name})`),
  ],
);

export const tehsils = pgTable(
  'tehsils',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    districtId: uuid('district_id')
      .notNull()
      .references(() => districts.id),
    stateId: uuid('state_id')
      .notNull()
      .references(() => states.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('tehsils_district_idx').on(t.districtId),
    index('tehsils_state_idx').on(t.stateId),
    uniqueIndex('tehsils_district_name_key').on(t.districtId, sql`lower(${t.name})`),
  ],
);

/**
 * Every person: staff, tier users and customers (seed section 3, User).
 * `path` is the hierarchy path ('/<md>/<d>/<r>/<self>/'): a tier user's network is every row whose
 * path starts with its own (Apache Fineract's office hierarchy). Staff have '/<self>/'.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: smallint('type').notNull(),
    name: text('name').notNull(),
    email: text('email'),
    mobile: text('mobile'),
    userName: text('user_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    passwordUpdatedAt: timestamp('password_updated_at', { withTimezone: true }),
    status: text('status').notNull().default('ACTIVE'),
    districtId: uuid('district_id').references(() => districts.id),
    tehsilId: uuid('tehsil_id').references(() => tehsils.id),
    path: text('path').notNull(),
    masterDistributorId: uuid('master_distributor_id'),
    distributorId: uuid('distributor_id'),
    retailerId: uuid('retailer_id'),
    isMaster: boolean('is_master'),
    distributorCode: text('distributor_code'),
    masterDistributorCommission: text('master_distributor_commission'),
    /** Aadhar is personal data: AES-256-GCM ciphertext, a keyed hash for exact search, the last four digits. */
    aadharCipher: text('aadhar_cipher'),
    aadharHash: text('aadhar_hash'),
    aadharLast4: text('aadhar_last4'),
    panId: text('pan_id'),
    /** Wallet in integer paise; changed only by ledger postings. */
    balancePaise: bigint('balance_paise', { mode: 'number' }).notNull().default(0),
    clearingBalancePaise: bigint('clearing_balance_paise', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_user_name_key').on(sql`lower(${t.userName})`),
    uniqueIndex('users_mobile_key').on(t.mobile),
    index('users_aadhar_hash_idx').on(t.aadharHash),
    index('users_type_idx').on(t.type, t.createdAt),
    index('users_path_idx').on(t.path.op('text_pattern_ops')),
    check('users_type_check', sql`${t.type} between 0 and 5`),
    check('users_status_check', sql`${t.status} in ('ACTIVE', 'INACTIVE')`),
  ],
);

/** Opaque bearer sessions: only the SHA-256 of the token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * Failed passwords (sign-in or password change), for the per-account lock (modules/account/throttle.ts). Kept
 * in the database so several servers agree. `account` is the user's id, or `name:<lower-cased name>` for a
 * name that matches no user (so unknown names are throttled alike and reveal nothing). Pruned once older than
 * the window.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account: text('account').notNull(),
    ip: text('ip').notNull(),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('login_failures_account_idx').on(t.account, t.failedAt),
    index('login_failures_failed_idx').on(t.failedAt),
  ],
);

export const providers = pgTable(
  'providers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('providers_name_key').on(sql`lower(${t.name})`)],
);

/**
 * A partner-bank product. Amount in paise; commissions in hundredths of a percent (33.33% = 3333), so the
 * "sum is exactly 100" rule is integer arithmetic: the five must add up to 10000.
 */
export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    name: text('name').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    adminCommission: integer('admin_commission').notNull(),
    masterDistributorCommission: integer('master_distributor_commission').notNull(),
    distributorCommission: integer('distributor_commission').notNull(),
    retailerCommission: integer('retailer_commission').notNull(),
    customerCommission: integer('customer_commission').notNull(),
    url: text('url').notNull(),
    reqType: text('req_type').notNull().default('GET'),
    urlData: text('url_data').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('products_provider_idx').on(t.providerId),
    uniqueIndex('products_provider_name_key').on(t.providerId, sql`lower(${t.name})`),
    check('products_amount_check', sql`${t.amountPaise} > 0`),
    check(
      'products_commission_total_check',
      sql`${t.adminCommission} + ${t.masterDistributorCommission} + ${t.distributorCommission} + ${t.retailerCommission} + ${t.customerCommission} = 10000`,
    ),
  ],
);

/**
 * An application from the public onboarding form. The six sections are kept as submitted (jsonb) except the
 * Aadhar number, which is held only encrypted; list columns are copied out for filtering and display.
 */
export const leads = pgTable(
  'leads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    leadType: text('lead_type').notNull(),
    status: text('status').notNull().default('NEW'),
    applicantName: text('applicant_name').notNull(),
    establishmentName: text('establishment_name').notNull(),
    mobile: text('mobile').notNull(),
    stateId: uuid('state_id')
      .notNull()
      .references(() => states.id),
    districtId: uuid('district_id')
      .notNull()
      .references(() => districts.id),
    tehsilId: uuid('tehsil_id')
      .notNull()
      .references(() => tehsils.id),
    sections: jsonb('sections').notNull(),
    aadharCipher: text('aadhar_cipher').notNull(),
    aadharHash: text('aadhar_hash').notNull(),
    aadharLast4: text('aadhar_last4').notNull(),
    /** An Aadhar number given as the identity proof, encrypted like the one above (null for other proofs). */
    identityNumberCipher: text('identity_number_cipher'),
    /** Stored files: random names under DATA_DIR/uploads, with the type judged from their bytes. */
    pictureFile: text('picture_file').notNull(),
    pictureMime: text('picture_mime').notNull(),
    pictureSize: integer('picture_size').notNull(),
    documentFile: text('document_file').notNull(),
    documentMime: text('document_mime').notNull(),
    documentSize: integer('document_size').notNull(),
    documentName: text('document_name').notNull(),
    userId: uuid('user_id').references(() => users.id),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    rejectReason: text('reject_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('leads_created_idx').on(t.createdAt),
    index('leads_status_idx').on(t.status, t.leadType),
    check('leads_type_check', sql`${t.leadType} in ('RETAILER', 'DISTRIBUTOR')`),
    check('leads_status_check', sql`${t.status} in ('NEW', 'APPROVED', 'REJECTED')`),
  ],
);
