import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
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
    /**
     * The person must set up a second step (TOTP) before anything else, whatever MFA_REQUIRED_FOR says: a new
     * admin, or one whose second step another admin reset (account's clearSecondStep). Cleared once it is on.
     */
    mfaSetupRequired: boolean('mfa_setup_required').notNull().default(false),
    /** The language of this person's notifications (issue 55): the panel's last choice, English until one. */
    language: text('language').notNull().default('en'),
    /** Whether this person takes its notifications by e-mail, and by SMS (its choices on the Account page). */
    notifyEmail: boolean('notify_email').notNull().default(true),
    notifySms: boolean('notify_sms').notNull().default(true),
    /** What a list search looks in (name, user name, email, mobile), lower-cased, behind a trigram index. */
    search: text('search').generatedAlwaysAs(
      sql`lower(name || ' ' || user_name || ' ' || coalesce(email, '') || ' ' || coalesce(mobile, ''))`,
    ),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_user_name_key').on(sql`lower(${t.userName})`),
    uniqueIndex('users_mobile_key').on(t.mobile),
    index('users_aadhar_hash_idx').on(t.aadharHash),
    // List paging reads these indexes only (rows are joined for the ten ids of a page): by type for staff, and
    // under each parent for the tier users' own networks and the parent filters. Ascending: PostgreSQL scans
    // them backwards for newest first (a DESC NULLS LAST index would not serve a plain DESC order).
    index('users_type_created_idx').on(t.type, t.createdAt, t.id),
    index('users_md_created_idx').on(t.masterDistributorId, t.type, t.createdAt, t.id),
    index('users_distributor_created_idx').on(t.distributorId, t.type, t.createdAt, t.id),
    index('users_retailer_created_idx').on(t.retailerId, t.type, t.createdAt, t.id),
    index('users_type_name_idx').on(t.type, sql`lower(${t.name})`, t.id),
    // Substring search within one type (every people list and typeahead names one): btree_gin puts the type in
    // the trigram index, so one index scan finds a type's candidates (a retailers typeahead 12% faster than
    // ANDing the type's index with a search-only trigram index).
    index('users_type_search_idx').using('gin', t.type, t.search.op('gin_trgm_ops')),
    // A search of digits only (a mobile number or part of one, the typeahead's usual input) finds its users as
    // one key of this index: every 4 to 12 consecutive digits of the search column
    // (search_digit_grams, migration 0009). Trigrams cannot: every mobile holds '000', and '6000001' had 11,000
    // retailer candidates to recheck for 899 matches.
    index('users_type_digits_idx').using('gin', t.type, sql`search_digit_grams(${t.search})`),
    // A network's members by path prefix, with their ids in the index: the dashboard's money tiles join a
    // network's users to postings and wallets without reading the users' rows (index-only).
    index('users_path_idx').on(t.path.op('text_pattern_ops'), t.id),
    check('users_type_check', sql`${t.type} between 0 and 5`),
    check('users_status_check', sql`${t.status} in ('ACTIVE', 'INACTIVE')`),
    check('users_language_check', sql`${t.language} in ('en', 'hi')`),
  ],
);

/**
 * Sign-in names: one namespace for user names (lower-cased) and mobile numbers, since sign-in takes either. Each
 * user holds its user name and its mobile here (one row when they are the same), so no user name can be another
 * user's mobile number or the reverse: the primary key decides, also between two saves that race. Kept by a trigger
 * on users in the same transaction as every write (migration 0014), never by hand.
 */
export const signInNames = pgTable(
  'sign_in_names',
  {
    name: text('name').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [index('sign_in_names_user_idx').on(t.userId)],
);

/**
 * Clashes found when sign-in names began (migration 0014): a user whose user name or mobile an older user already
 * held keeps its data; the name stays with the older user, and the clash is listed here (and in a warning at every
 * start) until the newer user is given another one, which removes its rows.
 */
export const signInNameClashes = pgTable(
  'sign_in_name_clashes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    heldBy: uuid('held_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.name] })],
);

/**
 * How many users of each type (and how many of them ACTIVE) each network holds, kept in the same transaction as
 * every write that changes them (modules/account/counts.ts), so list totals and dashboard counts never recount
 * the users table. `scopeId` is the user heading the network (its own row is counted in it), or the nil uuid
 * for the whole network.
 */
export const networkCounts = pgTable(
  'network_counts',
  {
    scopeId: uuid('scope_id').notNull(),
    type: smallint('type').notNull(),
    total: bigint('total', { mode: 'number' }).notNull().default(0),
    active: bigint('active', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.scopeId, t.type] })],
);

/** A position in PostgreSQL's write-ahead log (`16/B374D848`), kept as its text. */
const pgLsn = customType<{ data: string; driverData: string }>({ dataType: () => 'pg_lsn' });

/**
 * Opaque bearer sessions: only the SHA-256 of the token is stored. `walLsn`, with a read replica only: the
 * primary's WAL position after the session's latest write; a read for it goes to the replica only once the
 * replica has replayed that far (read-your-writes, http/reader.ts).
 */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    /** What the person's list of sessions names a session by (account/sessions): never the token or its hash. */
    id: uuid('id').notNull().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    walLsn: pgLsn('wal_lsn'),
    /**
     * When the session was last used, and from which address: written at sign-in, then at most once a minute
     * (http/session-token.ts), not on every call.
     */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    /** The User-Agent header the session signed in with (cut to 300 characters). */
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), uniqueIndex('sessions_id_key').on(t.id)],
);

/**
 * A person's second step (TOTP, RFC 6238: SHA-1, 6 digits, 30 s), one row per person (modules/account/second-step.ts).
 * The secret is sealed with the data key's personal-data cipher (AES-256-GCM, as Aadhar numbers are). `enabledAt`
 * is null from the set-up until a code confirms it. `lastStep` is the last time step whose code was accepted: that
 * code, and every earlier one, is refused, so each code works once.
 */
export const secondSteps = pgTable('second_steps', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretCipher: text('secret_cipher').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/**
 * A person's unused recovery codes, each as a keyed hash (PersonalDataCipher.secretHash): a code is deleted as it
 * is used, so it works once.
 */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
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
    /**
     * Stored files (`stored_files` ids), with the type judged from their bytes. The references are checked for
     * every application written since migration 0024, not for older ones (NOT VALID): their files are brought
     * in from DATA_DIR/uploads at start (modules/leads/files.ts), and one that was lost is not there to point at.
     */
    pictureFile: text('picture_file')
      .notNull()
      .references(() => storedFiles.id),
    pictureMime: text('picture_mime').notNull(),
    pictureSize: integer('picture_size').notNull(),
    documentFile: text('document_file')
      .notNull()
      .references(() => storedFiles.id),
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

// Money (issue 9) ------------------------------------------------------------------------------------------

/**
 * A user's wallet in integer paise, one row per user (created with the user). It changes only in the
 * transaction that writes its postings (modules/ledger), under a row lock taken in user-id order. A narrow
 * table of its own, so the admin wallet (credited by every sale) is a small hot row that profile edits and
 * network moves never lock. `chainHead` is the seal of the wallet's latest posting (see postings.seal).
 */
export const wallets = pgTable(
  'wallets',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id),
    balancePaise: bigint('balance_paise', { mode: 'number' }).notNull().default(0),
    clearingBalancePaise: bigint('clearing_balance_paise', { mode: 'number' }).notNull().default(0),
    postingCount: bigint('posting_count', { mode: 'number' }).notNull().default(0),
    chainHead: text('chain_head'),
  },
  (t) => [
    // No check on balancePaise: a reversal of money already paid out leaves the wallet owing (below zero);
    // postings_balances_check keeps payouts from taking it there.
    check('wallets_clearing_check', sql`${t.clearingBalancePaise} >= 0`),
    // The wallets holding money in clearing, with the amount: the dashboard's clearing tile sums these (a day's
    // commissions, a few thousand wallets) instead of every wallet (100,000 at scale, most of them at zero).
    index('wallets_clearing_idx')
      .on(t.userId, t.clearingBalancePaise)
      .where(sql`${t.clearingBalancePaise} <> 0`),
  ],
);

/**
 * A network's commissions per day (the day as the dashboard counts it, in BUSINESS_TIME_ZONE): for every user,
 * the commissions credited to it and to everyone under it, and under the whole-network scope (WHOLE_NETWORK,
 * staff's view) every commission. Written with the postings (ledger.ts, writePostings: the first counter) under
 * the wallet locks their write already holds, so the dashboard's "today" and "this month" tiles read one
 * network's rows (a day, a month's days) instead of its members' postings. A subtree that moves carries its rows
 * (its root's rows are its totals) out of the networks it leaves into the ones it joins (modules/network/money.ts);
 * `reconcile` checks them against the postings and the users' paths. The key does not cover the amount: a tile reads one row or a
 * month's 31 at most, and an amount outside the key lets the hot rows (the whole network's today, every sale)
 * be updated in place (HOT).
 */
export const networkCommissionDays = pgTable(
  'network_commission_days',
  {
    scopeId: uuid('scope_id').notNull(),
    day: date('day').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scopeId, t.day] })],
);

/**
 * What a network's wallets hold in clearing: for every user outside staff, its own wallet's and those of
 * everyone under it. Kept like networkCommissionDays (every posting to or from clearing adds to it), checked by
 * `reconcile` against the wallets. Staff's clearing tile sums the wallets holding any (wallets_clearing_idx), so
 * no row is written by every sale and every settlement alike.
 */
export const networkClearing = pgTable('network_clearing', {
  scopeId: uuid('scope_id').primaryKey(),
  clearingPaise: bigint('clearing_paise', { mode: 'number' }).notNull(),
});

/**
 * A network's sales per day and product (issue 55, the dashboard's charts): for the whole network (WHOLE_NETWORK)
 * and for every master distributor, distributor and retailer on the sale's frozen path, the sales recorded that day
 * (the day in BUSINESS_TIME_ZONE) and, of those, how many are CONFIRMED and FAILED now. Written in the transaction
 * that records the sale or changes its status (sales/counters.ts), its rows in key order, so `report/trends` and
 * `report/products` read a network's 30 days (times its products) instead of its sales. A sale's path never moves,
 * so its rows never move either. The counts outside the key: the hot rows (the whole network's today) are updated
 * in place (HOT).
 */
export const saleDays = pgTable(
  'sale_days',
  {
    scopeId: uuid('scope_id').notNull(),
    day: date('day').notNull(),
    productId: uuid('product_id').notNull(),
    sales: integer('sales').notNull(),
    confirmed: integer('confirmed').notNull(),
    failed: integer('failed').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scopeId, t.day, t.productId] })],
);

/**
 * A retailer's own commissions per month (the month's first day in BUSINESS_TIME_ZONE), with its master
 * distributor and distributor as they are now: `report/top`'s rows (issue 55). Written with the postings (ledger.ts,
 * writePostings: the last counter); a subtree's move rewrites the chain of its retailers' rows (ledger's
 * followRetailerMoves). Each top-10 reads ten entries of one index, backwards: the month's across the whole network,
 * a master distributor's or a distributor's.
 */
export const retailerCommissionMonths = pgTable(
  'retailer_commission_months',
  {
    retailerId: uuid('retailer_id').notNull(),
    month: date('month').notNull(),
    masterDistributorId: uuid('master_distributor_id'),
    distributorId: uuid('distributor_id'),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.retailerId, t.month] }),
    // Ascending (docs: drizzle-kit's DESC is NULLS LAST): `order by amount_paise desc, retailer_id desc` scans back.
    index('retailer_months_top_idx').on(t.month, t.amountPaise, t.retailerId),
    index('retailer_months_md_top_idx').on(t.masterDistributorId, t.month, t.amountPaise, t.retailerId),
    index('retailer_months_distributor_top_idx').on(t.distributorId, t.month, t.amountPaise, t.retailerId),
  ],
);

/**
 * The postings' amounts per day (the day in BUSINESS_TIME_ZONE, as businessDayOf counts it) and per filter a
 * postings list takes (the user's type, kind, transaction type, status): the money in and out of any filter of
 * `transactions/fetch` over any range of days are a sum over these rows, never over the postings (issue 43: the
 * totals of a list's whole filter). Written with the postings (ledger.ts, writePostings) after the network rows,
 * in key order; a bulk load rebuilds them (rebuildPostingTotals). `reconcile` checks them against
 * the postings. The amount outside the key: the hot rows (today's commissions) are updated in place.
 */
export const postingDayTotals = pgTable(
  'posting_day_totals',
  {
    day: date('day').notNull(),
    userType: smallint('user_type').notNull(),
    kind: text('kind').notNull(),
    transactionType: text('transaction_type').notNull(),
    status: text('status').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'bigint' }).notNull(),
    postingCount: bigint('posting_count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.userType, t.kind, t.transactionType, t.status] })],
);

/**
 * The same per month (the first day of the month in BUSINESS_TIME_ZONE): a range of days sums its whole months
 * here and only its partial months' days in postingDayTotals, so a year's totals read a few hundred rows, not
 * thousands. Kept and checked like postingDayTotals.
 */
export const postingMonthTotals = pgTable(
  'posting_month_totals',
  {
    month: date('month').notNull(),
    userType: smallint('user_type').notNull(),
    kind: text('kind').notNull(),
    transactionType: text('transaction_type').notNull(),
    status: text('status').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'bigint' }).notNull(),
    postingCount: bigint('posting_count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.userType, t.kind, t.transactionType, t.status] })],
);

/**
 * The same per user: a list filtered to one user (the admin's wallet takes a share of every sale) sums that
 * user's rows for the range of days instead of its postings. Kept and checked like postingDayTotals.
 */
export const walletDayTotals = pgTable(
  'wallet_day_totals',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    day: date('day').notNull(),
    userType: smallint('user_type').notNull(),
    kind: text('kind').notNull(),
    transactionType: text('transaction_type').notNull(),
    status: text('status').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'bigint' }).notNull(),
    postingCount: bigint('posting_count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.userType, t.kind, t.transactionType, t.status] })],
);

/**
 * The account-opening links Tierdesk obtained from the partner (`payusprint/*`): a sale can only be recorded
 * for a utmCode the partner really issued, with the merchant code it gave. Each opening is bound to one product:
 * its amount and five percentages (hundredths) are recorded when the link is obtained, and the sale's split is
 * that one, whatever the product says later. `url` is the partner's link, kept so a pending sale can be reopened.
 * Openings recorded before the binding may name no product: no sale can be recorded for them.
 */
export const accountOpenings = pgTable(
  'account_openings',
  {
    utmCode: text('utm_code').primaryKey(),
    merchantCode: text('merchant_code').notNull(),
    accountType: text('account_type').notNull(),
    productId: uuid('product_id').references(() => products.id),
    customerId: uuid('customer_id').references(() => users.id),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    amountPaise: bigint('amount_paise', { mode: 'number' }),
    adminCommission: integer('admin_commission'),
    masterDistributorCommission: integer('master_distributor_commission'),
    distributorCommission: integer('distributor_commission'),
    retailerCommission: integer('retailer_commission'),
    customerCommission: integer('customer_commission'),
    url: text('url'),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'account_openings_split_check',
      sql`${t.productId} is null or coalesce(${t.amountPaise} > 0 and ${t.adminCommission} + ${t.masterDistributorCommission} + ${t.distributorCommission} + ${t.retailerCommission} + ${t.customerCommission} = 10000, false)`,
    ),
  ],
);

/**
 * `bought_products/create` under an `Idempotency-Key` header: one row per caller and key, holding what the
 * request said (a fingerprint of its body) and the answer it got. The row is claimed first and its answer written
 * last, in the sale's own transaction, so no one else ever reads it without its answer; a concurrent request with
 * the same key waits on the claim. The same key again with the same body gets that answer; with another, a 409.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    callerId: uuid('caller_id')
      .notNull()
      .references(() => users.id),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    statusCode: integer('status_code'),
    answer: jsonb('answer'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.callerId, t.key] })],
);

/**
 * A bought product (seed section 3): one sale of a partner product to a customer. The amount, the five
 * percentages (hundredths), each tier's share in paise and who receives it are frozen when the sale is
 * recorded, so later product edits or network moves change nothing already sold. `path` is the customer's
 * hierarchy path then, for network scoping.
 */
export const boughtProducts = pgTable(
  'bought_products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id),
    retailerId: uuid('retailer_id').references(() => users.id),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    soldBy: uuid('sold_by')
      .notNull()
      .references(() => users.id),
    utmCode: text('utm_code').notNull(),
    merchantCode: text('merchant_code').notNull(),
    accountType: text('account_type'),
    status: text('status').notNull().default('PENDING'),
    path: text('path').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    adminCommission: integer('admin_commission').notNull(),
    masterDistributorCommission: integer('master_distributor_commission').notNull(),
    distributorCommission: integer('distributor_commission').notNull(),
    retailerCommission: integer('retailer_commission').notNull(),
    customerCommission: integer('customer_commission').notNull(),
    adminShare: bigint('admin_share', { mode: 'number' }).notNull(),
    masterDistributorShare: bigint('master_distributor_share', { mode: 'number' }).notNull(),
    distributorShare: bigint('distributor_share', { mode: 'number' }).notNull(),
    retailerShare: bigint('retailer_share', { mode: 'number' }).notNull(),
    customerShare: bigint('customer_share', { mode: 'number' }).notNull(),
    /** Who receives each share: the tier's user, or admin when the tier is missing. */
    adminUserId: uuid('admin_user_id')
      .notNull()
      .references(() => users.id),
    masterDistributorUserId: uuid('master_distributor_user_id')
      .notNull()
      .references(() => users.id),
    distributorUserId: uuid('distributor_user_id')
      .notNull()
      .references(() => users.id),
    retailerUserId: uuid('retailer_user_id')
      .notNull()
      .references(() => users.id),
    customerUserId: uuid('customer_user_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('bought_products_utm_key').on(t.utmCode),
    index('bought_products_created_idx').on(t.createdAt, t.id),
    index('bought_products_retailer_idx').on(t.retailerId, t.createdAt, t.id),
    index('bought_products_customer_idx').on(t.customerId),
    index('bought_products_status_idx').on(t.status, t.createdAt, t.id),
    check('bought_products_status_check', sql`${t.status} in ('PENDING', 'CONFIRMED', 'FAILED', 'REVERSED')`),
    check('bought_products_amount_check', sql`${t.amountPaise} > 0`),
    check(
      'bought_products_split_check',
      sql`${t.adminShare} + ${t.masterDistributorShare} + ${t.distributorShare} + ${t.retailerShare} + ${t.customerShare} = ${t.amountPaise}`,
    ),
  ],
);

/**
 * The partner's callbacks, by their eventId: a repeated delivery answers the stored first answer and changes
 * nothing; the same eventId with other content (another sale, event or merchant code) is refused. Only events
 * that were applied are kept (a refused event leaves no row, so a retry is judged again).
 */
export const providerEvents = pgTable('provider_events', {
  eventId: text('event_id').primaryKey(),
  event: text('event').notNull(),
  utmCode: text('utm_code').notNull(),
  /** The rest of what the event said (null on events kept before it was): the same eventId must say the same. */
  merchantCode: text('merchant_code'),
  boughtProductId: uuid('bought_product_id').references(() => boughtProducts.id),
  answer: jsonb('answer'),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The ledger: every wallet change is one immutable posting (a trigger refuses UPDATE, DELETE and TRUNCATE).
 * Corrections are new postings pointing at what they correct (`refPostingId`). Each posting carries the
 * wallet's balances right after it and a seal: HMAC-SHA-256 over the previous posting's seal of the same
 * wallet and this posting's fields, so reconciliation can prove that no posting was changed, removed or
 * slipped in. Partial unique indexes make double posting impossible even for a buggy caller: a sale's
 * commission once per tier, a commission settled once and reversed once, a payout reference used once.
 */
export const postings = pgTable(
  'postings',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** The user's type, copied so the transaction list filters by type without a join. */
    userType: smallint('user_type').notNull(),
    boughtProductId: uuid('bought_product_id').references(() => boughtProducts.id),
    tier: text('tier'),
    kind: text('kind').notNull(),
    transactionType: text('transaction_type').notNull(),
    balanceType: text('balance_type').notNull(),
    status: text('status').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    balanceAfterPaise: bigint('balance_after_paise', { mode: 'number' }).notNull(),
    clearingBalanceAfterPaise: bigint('clearing_balance_after_paise', { mode: 'number' }).notNull(),
    refPostingId: uuid('ref_posting_id'),
    reference: text('reference'),
    createdBy: uuid('created_by').references(() => users.id),
    /** Position in the wallet's chain (1, 2, 3...). */
    walletSeq: bigint('wallet_seq', { mode: 'number' }).notNull(),
    seal: text('seal').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('postings_wallet_seq_key').on(t.userId, t.walletSeq),
    index('postings_created_idx').on(t.createdAt, t.id),
    index('postings_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('postings_type_created_idx').on(t.userType, t.createdAt, t.id),
    index('postings_transaction_type_created_idx').on(t.transactionType, t.createdAt, t.id),
    index('postings_status_created_idx').on(t.status, t.createdAt, t.id),
    index('postings_sale_idx').on(t.boughtProductId),
    index('postings_ref_idx').on(t.refPostingId),
    uniqueIndex('postings_commission_once')
      .on(t.boughtProductId, t.tier)
      .where(sql`${t.kind} = 'COMMISSION'`),
    uniqueIndex('postings_settled_once')
      .on(t.refPostingId, t.balanceType)
      .where(sql`${t.kind} = 'SETTLEMENT'`),
    uniqueIndex('postings_reversed_once').on(t.refPostingId).where(sql`${t.kind} = 'REVERSAL'`),
    // A commission's tax is withheld once and given back once (modules/tds/tds.ts).
    uniqueIndex('postings_tds_once').on(t.refPostingId, t.transactionType).where(sql`${t.kind} = 'TDS'`),
    uniqueIndex('postings_payout_reference_key').on(t.reference).where(sql`${t.kind} = 'PAYOUT'`),
    // Payout references compare trimmed and case-folded (modules/ledger/payout.ts).
    index('postings_payout_reference_folded_idx')
      .on(sql`lower(btrim(${t.reference}))`)
      .where(sql`${t.kind} = 'PAYOUT'`),
    // A maker's payouts of one day, summed against PAYOUT_APPROVAL_DAILY_RUPEES (modules/ledger/payout.ts).
    index('postings_payout_maker_idx').on(t.createdBy, t.createdAt).where(sql`${t.kind} = 'PAYOUT'`),
    check('postings_amount_check', sql`${t.amountPaise} > 0`),
    check(
      'postings_balances_check',
      sql`${t.clearingBalanceAfterPaise} >= 0 and (${t.balanceAfterPaise} >= 0 or ${t.kind} <> 'PAYOUT')`,
    ),
    check(
      'postings_kind_check',
      sql`${t.kind} in ('COMMISSION', 'SETTLEMENT', 'REVERSAL', 'PAYOUT', 'TDS', 'ADJUSTMENT')`,
    ),
    check('postings_type_check', sql`${t.transactionType} in ('CREDIT', 'DEBIT')`),
    check('postings_balance_type_check', sql`${t.balanceType} in ('CLEARING', 'AVAILABLE')`),
    check(
      'postings_status_check',
      sql`${t.status} in ('CLEARING', 'SETTLED', 'REVERSED', 'PAID', 'WITHHELD', 'ADJUSTED')`,
    ),
  ],
);

/**
 * Maker-checker (issues 43 and 51): a command that waits for a second person. Money commands: a payout above
 * PAYOUT_APPROVAL_ABOVE_RUPEES or past a maker's daily line, any payout an employee records, and every manual
 * adjustment. Power commands: making an admin (a new one, or an employee promoted) and resetting another admin's
 * password or second step. Each is written here PENDING and changes nothing; an admin who is neither its maker nor
 * the person it is for approves it (the command runs, in the transaction that marks it APPROVED) or rejects it with
 * a reason. The row is locked while it is decided, so two approvals of one command run it once. A row is never
 * deleted.
 */
export const pendingCommands = pgTable(
  'pending_commands',
  {
    id: uuid('id').primaryKey(),
    /** PAYOUT, ADJUSTMENT, ADMIN_CREATE, ADMIN_PROMOTE, ADMIN_PASSWORD_RESET or ADMIN_SECOND_STEP_RESET. */
    kind: text('kind').notNull(),
    /**
     * Whom it is for: the wallet paid or adjusted, the employee promoted, the admin reset. ADMIN_CREATE: none while
     * it waits; the new admin once approved.
     */
    userId: uuid('user_id').references(() => users.id),
    /** Money commands: paise; a payout is above zero, an adjustment signed (a debit below zero), never zero. */
    amountPaise: bigint('amount_paise', { mode: 'number' }),
    /** A payout's bank reference (its idempotency key), as first typed. */
    reference: text('reference'),
    /** An adjustment's note: what the statement, the wallet and the tier user's transactions show. */
    note: text('note'),
    /** Why the maker asks: an adjustment's internal reason (staff only), or a power command's. */
    reason: text('reason'),
    /** ADMIN_CREATE: the new admin's name, user name, email, mobile, district and tehsil (never a password). */
    details: jsonb('details'),
    status: text('status').notNull(),
    makerId: uuid('maker_id')
      .notNull()
      .references(() => users.id),
    checkerId: uuid('checker_id').references(() => users.id),
    rejectionReason: text('rejection_reason'),
    /** The posting the approval wrote (money commands). */
    postingId: uuid('posting_id').references(() => postings.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('pending_commands_status_created_idx').on(t.status, t.createdAt, t.id),
    index('pending_commands_maker_idx').on(t.makerId, t.createdAt, t.id),
    index('pending_commands_reference_folded_idx')
      .on(sql`lower(btrim(${t.reference}))`)
      .where(sql`${t.kind} = 'PAYOUT'`),
    // A maker's payouts of a day leave out those a second person approved (modules/ledger/payout.ts).
    index('pending_commands_posting_idx').on(t.postingId).where(sql`${t.postingId} is not null`),
    // One pending power command per kind and person (a second is refused): the index decides a race.
    uniqueIndex('pending_commands_power_once')
      .on(t.kind, t.userId)
      .where(
        sql`${t.status} = 'PENDING' and ${t.kind} in ('ADMIN_PROMOTE', 'ADMIN_PASSWORD_RESET', 'ADMIN_SECOND_STEP_RESET')`,
      ),
    check(
      'pending_commands_kind_check',
      sql`${t.kind} in ('PAYOUT', 'ADJUSTMENT', 'ADMIN_CREATE', 'ADMIN_PROMOTE', 'ADMIN_PASSWORD_RESET', 'ADMIN_SECOND_STEP_RESET')`,
    ),
    check('pending_commands_status_check', sql`${t.status} in ('PENDING', 'APPROVED', 'REJECTED')`),
    check(
      'pending_commands_amount_check',
      sql`case when ${t.kind} in ('PAYOUT', 'ADJUSTMENT') then ${t.amountPaise} is not null and ${t.amountPaise} <> 0 and (${t.kind} <> 'PAYOUT' or ${t.amountPaise} > 0) else ${t.amountPaise} is null end`,
    ),
    check(
      'pending_commands_user_check',
      sql`${t.userId} is not null or (${t.kind} = 'ADMIN_CREATE' and ${t.status} <> 'APPROVED')`,
    ),
  ],
);

/**
 * The company's own ledger accounts (issue 43): `TDS_PAYABLE`, the tax withheld from commissions and not yet
 * deposited. One row per account, changed only in the transaction that writes its entries, under a row lock taken
 * after the wallets' (modules/tds/tds.ts); `reconcile` checks it against its entries. It may go below zero when
 * a reversal gives back tax already deposited: the next withholdings make it up.
 */
export const ledgerAccounts = pgTable('ledger_accounts', {
  name: text('name').primaryKey(),
  balancePaise: bigint('balance_paise', { mode: 'number' }).notNull().default(0),
  entryCount: bigint('entry_count', { mode: 'number' }).notNull().default(0),
});

/**
 * TDS payable's entries (immutable, like postings): the other side of every TDS posting (WITHHELD credits the
 * account, RETURNED debits it) and each challan deposit (DEPOSIT debits it). A withholding records the rate and the
 * PAN it was withheld under, for Form 26Q and Form 16A. A challan (BSR code, serial, date) is recorded once.
 */
export const tdsEntries = pgTable(
  'tds_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    /** WITHHELD and RETURNED: the deductee's TDS posting, its user and the commission it taxes. */
    postingId: uuid('posting_id').references(() => postings.id),
    userId: uuid('user_id').references(() => users.id),
    commissionId: uuid('commission_id'),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    /** WITHHELD: the commission taxed, the rate (basis points: 2% = 200) and the PAN then (null: none given). */
    creditedPaise: bigint('credited_paise', { mode: 'number' }),
    rateBasisPoints: integer('rate_basis_points'),
    panId: text('pan_id'),
    /**
     * DEPOSIT: the challan. Its serial is stored in the challan's own five digits (`00017`); deposits recorded before
     * issue 51 kept it as typed (`17`), and entries are never changed, so the key below compares serials padded.
     */
    bsrCode: text('bsr_code'),
    challanSerial: text('challan_serial'),
    depositedOn: date('deposited_on'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('tds_entries_posting_key').on(t.postingId),
    // One deposit per challan, `1` and `00001` being the same serial. Migration 0028 leaves out the second of a
    // challan recorded twice before (kept: entries are never changed).
    uniqueIndex('tds_entries_challan_key')
      .on(t.bsrCode, sql`lpad(${t.challanSerial}, 5, '0')`, t.depositedOn)
      .where(sql`${t.kind} = 'DEPOSIT'`),
    // The withholding of a commission: the rate and PAN its tax was withheld at (the quarter's report, a return).
    index('tds_entries_withheld_commission_idx').on(t.commissionId).where(sql`${t.kind} = 'WITHHELD'`),
    index('tds_entries_user_created_idx').on(t.userId, t.createdAt),
    index('tds_entries_created_idx').on(t.createdAt),
    check('tds_entries_kind_check', sql`${t.kind} in ('WITHHELD', 'RETURNED', 'DEPOSIT')`),
    check('tds_entries_amount_check', sql`${t.amountPaise} > 0`),
    check(
      'tds_entries_shape_check',
      sql`(${t.kind} = 'DEPOSIT') = (${t.postingId} is null) and (${t.kind} = 'DEPOSIT') = (${t.bsrCode} is not null)`,
    ),
  ],
);

/**
 * Every run of `reconcile` that a person asked for (issue 43's Books screen): `npm run reconcile` (no user) and an
 * admin's Run (`POST books/reconcile`). Kept in PostgreSQL, not in a server's memory, so every server of a fleet
 * shows the same latest result. `report` is the whole answer (its `breaks` are the findings). Never updated.
 */
export const reconcileRuns = pgTable(
  'reconcile_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ranAt: timestamp('ran_at', { withTimezone: true }).notNull(),
    ok: boolean('ok').notNull(),
    report: jsonb('report').notNull(),
    /** The admin who pressed Run; null for the command line. */
    ranBy: uuid('ran_by').references(() => users.id),
    /** HTTP (an admin's Run) or CLI (`npm run reconcile`). */
    source: text('source').notNull(),
  },
  (t) => [
    index('reconcile_runs_ran_at_idx').on(t.ranAt, t.id),
    check('reconcile_runs_source_check', sql`${t.source} in ('HTTP', 'CLI')`),
  ],
);

/**
 * Which data key sealed this database (security/data-key-check.ts): one row holding a value derived from the key
 * (dataKeyCheckOf) that tells nothing about it. A server started with another key finds another value and refuses
 * to start, before it writes anything the others could not read.
 */
export const dataKeyCheck = pgTable(
  'data_key_check',
  {
    /** Always true: the table holds one row. */
    one: boolean('one').primaryKey().default(true),
    value: text('value').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('data_key_check_one_row', sql`${t.one}`)],
);

/**
 * The per-address request limits (@fastify/rate-limit's counters, http/rate-limit.ts): one row per route and
 * client address, so every server of a fleet counts the same requests. A window that has ended is started afresh
 * by the next request; rows whose window ended are pruned (modules/account/throttle.ts). No index beside the
 * key: each request updates `hits` in place, and pruning reads a table no bigger than the addresses seen lately.
 */
export const rateLimitHits = pgTable('rate_limit_hits', {
  /** The route (method and path) and the client's address. */
  key: text('key').primaryKey(),
  /** Requests counted in the current window. */
  hits: integer('hits').notNull(),
  /** When the current window ends, by the database's clock (every server reads the same one). */
  resetsAt: timestamp('resets_at', { withTimezone: true }).notNull(),
});

/**
 * The built-in sandbox partner's own records (PROVIDER_MODE=sandbox): the accounts it was asked to open.
 * It is the partner's storage, not Tierdesk's: Tierdesk learns of outcomes only through signed callbacks.
 */
export const sandboxAccounts = pgTable('sandbox_accounts', {
  utmCode: text('utm_code').primaryKey(),
  merchantCode: text('merchant_code').notNull(),
  accountType: text('account_type').notNull(),
  productId: uuid('product_id'),
  customerId: uuid('customer_id'),
  /** The customer's name as Tierdesk's signed call sent it: the page shows this, never a lookup by id. */
  customerName: text('customer_name'),
  /**
   * SHA-256 (hex) of the opening's secret key, which only the link Tierdesk received carries: the page and its
   * buttons act for a visitor holding it. Null for openings made before keys (no link can act on them).
   */
  keyHash: text('key_hash'),
  status: text('status').notNull().default('OPEN'),
  callbackStatus: integer('callback_status'),
  createdAt: createdAt(),
});

/**
 * The audit trail (Fineract's "every change is a command"): one row per state-changing call that succeeded,
 * written in the call's own transaction, and one per refusal that matters (failed passwords, 403s). Append-only:
 * a trigger refuses UPDATE, DELETE and TRUNCATE. Personal data is masked before it gets here
 * (modules/audit/mask.ts); password hashes, tokens and Aadhar numbers are never recorded. No foreign key to
 * users: an insert must not share-lock the actor's row, and refused sign-ins name no user. Kept forever.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The signed-in user, or null for the partner, the system (settlement job) and anonymous callers. */
    actorId: uuid('actor_id'),
    /** USER, PARTNER, SYSTEM or PUBLIC (no session: sign-in attempts, applications). */
    actorKind: text('actor_kind').notNull(),
    /** The user's name at the time (a refused sign-in: the typed user name, masked when it is a mobile number). */
    actorName: text('actor_name').notNull(),
    actorType: smallint('actor_type'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Ascending: drizzle-kit writes .desc() as DESC NULLS LAST, which a plain ORDER BY ... DESC does not use.
    index('audit_log_created_idx').on(t.createdAt, t.id),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt, t.id),
    index('audit_log_entity_idx').on(t.entity, t.createdAt, t.id),
    index('audit_log_action_idx').on(t.action, t.createdAt, t.id),
    check('audit_log_actor_kind_check', sql`${t.actorKind} in ('USER', 'PARTNER', 'SYSTEM', 'PUBLIC')`),
  ],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Bulk imports from CSV (issue 45): one row per file sent. The file itself is in the file store (`file_id`), so the
 * job's state never lives in one server's memory; its counts are written after every batch (the progress bar). While
 * a job runs, its server holds the job's runner lock (db/runner-lock.ts): a RUNNING job whose lock is free lost it.
 */
export const importJobs = pgTable(
  'import_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    fileName: text('file_name').notNull(),
    dryRun: boolean('dry_run').notNull(),
    mode: text('mode').notNull(),
    status: text('status').notNull().default('RUNNING'),
    actorId: uuid('actor_id').notNull(),
    /** The file as it was sent (stored_files), read again row by row while the job runs. */
    fileId: text('file_id')
      .notNull()
      .references(() => storedFiles.id),
    total: integer('total').notNull().default(0),
    read: integer('read').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    conflicts: integer('conflicts').notNull().default(0),
    refused: integer('refused').notNull().default(0),
    /** Every row error found, exact; `import_errors` keeps only the first IMPORT_KEPT_ERRORS of them. */
    errorsFound: integer('errors_found').notNull().default(0),
    /** Why a FAILED job stopped. */
    message: text('message'),
    createdAt: createdAt(),
  },
  (t) => [
    index('import_jobs_created_idx').on(t.createdAt, t.id),
    // One running import per person, across every server on the database (a stale one is ended first: jobs.ts).
    uniqueIndex('import_jobs_running_actor_key').on(t.actorId).where(sql`${t.status} = 'RUNNING'`),
    check('import_jobs_status_check', sql`${t.status} in ('RUNNING', 'DONE', 'FAILED')`),
    check('import_jobs_mode_check', sql`${t.mode} in ('create', 'update')`),
  ],
);
/**
 * An import's row errors, the first IMPORT_KEPT_ERRORS of them in the file's order: the CSV row (2 is the first
 * after the header), the column and the message. `id` orders a row's errors as they were found.
 */
export const importErrors = pgTable(
  'import_errors',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => importJobs.id, { onDelete: 'cascade' }),
    row: integer('row').notNull(),
    column: text('column').notNull(),
    message: text('message').notNull(),
  },
  (t) => [index('import_errors_job_idx').on(t.jobId, t.row)],
);

// Stored files (issue 46) ----------------------------------------------------------------------------------

/**
 * A file people sent (an application's picture or document), kept in the database so that every server sharing
 * it can serve it. Its id is a random name (32 hex digits), or the name the file had under DATA_DIR/uploads before
 * it was brought in; its type is the one judged from its bytes when it was received.
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    id: text('id').primaryKey(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('stored_files_size_check', sql`${t.size} >= 0`)],
);

/**
 * A stored file's bytes, in order, at most 256 KB a row (FILE_CHUNK_BYTES in modules/files/store.ts): written
 * and read one row at a time, so neither receiving nor serving a file holds all of it in memory. Stored without
 * compression (its files are compressed formats already).
 */
export const storedFileChunks = pgTable(
  'stored_file_chunks',
  {
    fileId: text('file_id')
      .notNull()
      .references(() => storedFiles.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.seq] })],
);

// Notifications (issue 55) ------------------------------------------------------------------------------------

/**
 * An integrator's webhook endpoint: its URL, the events it wants and the secret its deliveries are signed with
 * (shown once, when it is registered). A deleted endpoint is kept (its deliveries name it) but gets nothing more.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    secret: text('secret').notNull(),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('webhook_endpoints_created_idx').on(t.createdAt, t.id)],
);

/**
 * The outbox: one row per message to send (an e-mail, an SMS, a webhook delivery), written in the transaction of
 * the change it tells of, so it exists exactly when the change does. The runner (modules/notifications/runner.ts)
 * sends the due ones and records every attempt; the id travels with the message, so a message sent twice (a
 * server killed after sending, before recording) is recognised as one.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    event: text('event').notNull(),
    channel: text('channel').notNull(),
    /** The person told (e-mail, SMS); null for a webhook. */
    userId: uuid('user_id').references(() => users.id),
    endpointId: uuid('endpoint_id').references(() => webhookEndpoints.id),
    /** The address, mobile number or URL as it was when the row was written. */
    recipient: text('recipient').notNull(),
    language: text('language').notNull().default('en'),
    /** What the message says: the template's values, or the webhook's `data`. */
    data: jsonb('data').notNull(),
    status: text('status').notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** When the runner sends it (again); null once SENT or FAILED. */
    nextAt: timestamp('next_at', { withTimezone: true }).defaultNow(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    // The runner's look for due rows reads only the pending ones.
    index('notifications_due_idx').on(t.nextAt).where(sql`${t.status} = 'PENDING'`),
    index('notifications_created_idx').on(t.createdAt, t.id),
    index('notifications_status_created_idx').on(t.status, t.createdAt, t.id),
    index('notifications_channel_created_idx').on(t.channel, t.createdAt, t.id),
    check('notifications_channel_check', sql`${t.channel} in ('EMAIL', 'SMS', 'WEBHOOK')`),
    check('notifications_status_check', sql`${t.status} in ('PENDING', 'SENT', 'FAILED')`),
    check('notifications_language_check', sql`${t.language} in ('en', 'hi')`),
  ],
);

/** Every attempt to send a notification: when, whether it went, and what failed. */
export const notificationAttempts = pgTable(
  'notification_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    notificationId: uuid('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    ok: boolean('ok').notNull(),
    error: text('error'),
  },
  (t) => [index('notification_attempts_notification_idx').on(t.notificationId, t.id)],
);

/**
 * The months whose statement-ready notices are written (modules/notifications/statements.ts): a month's row is
 * inserted in the transaction that writes its notices, so a month is announced once however many servers try.
 */
export const statementNotices = pgTable('statement_notices', {
  /** The month, `YYYY-MM`, in India's calendar. */
  month: text('month').primaryKey(),
  createdAt: createdAt(),
});

// Live screens (issue 55) -------------------------------------------------------------------------------------

/** A transaction's id as PostgreSQL 13+ gives it (`pg_current_xact_id()`): 64 bits, never wrapping. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * What changed, for the event stream (`GET events`, modules/events): written in the transaction of the change, so
 * only what committed is ever announced, and kept 24 hours for streams that reconnect (`Last-Event-ID`). Who sees a
 * row is said by its `to_*` columns: the one session (`to_session`: a session that ended), or the person
 * (`to_user`), staff (`to_staff`: ALL, ADMINS or NONE) and the tier users whose hierarchy path is a prefix of
 * `to_network` (the record's own path, as a sale's). `xid` is the writing transaction's id: the servers read rows
 * in (xid, id) order once every transaction older than the reader's snapshot has ended (events/bus.ts), so a row
 * committed late is never passed over.
 */
export const events = pgTable(
  'events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    xid: xid8('xid').notNull().default(sql`pg_current_xact_id()`),
    kind: text('kind').notNull(),
    body: jsonb('body').notNull(),
    toNetwork: text('to_network'),
    toStaff: text('to_staff').notNull().default('NONE'),
    toUser: uuid('to_user'),
    toSession: uuid('to_session'),
    createdAt: createdAt(),
  },
  (t) => [
    index('events_position_idx').on(t.xid, t.id),
    index('events_created_idx').on(t.createdAt),
    check('events_to_staff_check', sql`${t.toStaff} in ('ALL', 'ADMINS', 'NONE')`),
  ],
);
