import { and, eq, like, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { UserType } from '../../../shared/enums';
import type { WireUser } from '../../../shared/wire';
import {
  Bindings,
  keyFields,
  listPage,
  listPageJson,
  pageAsJson,
  type SortWhitelist,
  type TotalSource,
  written,
} from '../../db/list';
import type { Queryable } from '../../db/open';
import type { RiderSource } from '../../db/ride';
import { districts, networkCounts, tehsils, users, wallets } from '../../db/schema';
import { likePattern } from '../../http/paging';
import {
  networkScope,
  networkScopeId,
  networkScopeOfType,
  scopedByPath,
  WHOLE_NETWORK,
} from '../network/index';
import { commonLetterGrams } from './common-grams';
import type { SessionUser, UserRow } from './sessions';
import { toWireUser, wireUserJson } from './wire';

/** The user signing in: by user name (case-insensitive) or, failing that, by mobile number. */
export async function findLoginUser(db: Queryable, login: string): Promise<UserRow | undefined> {
  const rows = await db
    .select()
    .from(users)
    .where(or(sql`lower(${users.userName}) = lower(${login})`, eq(users.mobile, login)))
    .limit(2);
  return rows.find((u) => u.userName.toLowerCase() === login.toLowerCase()) ?? rows[0];
}

/**
 * A user's password hash, read only where a password is checked: the session's user does not carry it
 * (http/session-token.ts).
 */
export async function passwordHashOf(db: Queryable, id: string): Promise<string | undefined> {
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, id));
  return row?.passwordHash;
}

/** A location's name by id, as a scalar subquery of a list's select. */
const nameOf = (table: typeof districts | typeof tehsils, id: AnyPgColumn) =>
  sql<string | null>`(select ${table.name} from ${table} where ${table.id} = ${id})`;

/**
 * A user's name by id, as a scalar subquery of a list's select (read through an alias of users, so an outer
 * users row stays unambiguous).
 */
export const userNameOf = (id: AnyPgColumn) =>
  sql<string | null>`(select parent.name from ${users} as parent where parent.id = ${id})`;

export interface UserListFilter {
  type?: UserType;
  id?: string;
  masterDistributorId?: string;
  distributorId?: string;
  retailerId?: string;
  searchText?: string;
  /** Keyed hash of a 12-digit search text: customers are found by exact Aadhar number. */
  aadharHash?: string;
}

/**
 * The list's user type, written into its text. Compared as the column's own type (smallint), it is a key of the
 * search indexes (users_type_search_idx, users_type_digits_idx, users_type_letters_idx): btree_gin has no
 * smallint = integer operator, so an integer literal left the type to the recheck, and a retailers' typeahead
 * ANDed a bitmap of every retailer from another index, most of its time. Customers are four users in
 * five: walking their entries in the GIN index costs more than rechecking the few others a search finds (a
 * common surname's search read more index entries than it saved in rechecks), so theirs stays an integer,
 * which every btree index still serves.
 */
const typeIs = (type: UserType) =>
  type === UserType.CUSTOMER
    ? eq(users.type, written(type))
    : sql`${users.type} = ${written(type)}::smallint`;

/**
 * A search the digit runs' index answers (search_digit_grams keeps runs of 4 to 12 digits). It keeps its plan: the
 * index finds any digits as one key, so the plan made without them is the one made with them, and planning was
 * most of a typeahead's time, and more so on the embedded engine. Planned with its values, a search of common
 * digits ('6000', held by every mobile) even read the table and ran search_digit_grams on each row, slower than
 * going through the index. The digits are bound unseen (Bindings.bindUnseen): seen, a rare number cost a
 * little less planned with it than the kept plan, whose guess is the average, so PostgreSQL planned it again.
 */
const DIGIT_SEARCH = /^[0-9]{4,12}$/;

/**
 * A search the letter runs' index answers (search_letter_grams keeps runs of 3 to 12 letters): a name or part of
 * one, the people search's usual input. Like digits, one key of its index whatever the letters, so it keeps its
 * plan and is bound unseen; but not letters that most users hold (commonLetterGrams), which the index would hand
 * over all at once. See docs/performance.md.
 */
const LETTER_SEARCH = /^[a-z]{3,12}$/;

/** A search text as the lists compare it (the search column is lower-cased). */
const searchTextOf = (f: UserListFilter) => f.searchText?.toLowerCase();

function filterConditions(
  viewer: SessionUser,
  f: UserListFilter,
  b: Bindings,
  commonGrams: ReadonlySet<string> = new Set(),
) {
  // A 12-digit search is an Aadhar number, found through its own index; anything else is a substring of the
  // name, user name, email or mobile: 4 to 12 digits or 3 to 12 letters through the index of the column's runs of
  // digits or of letters (the same matches as the substring: see migrations 0009 and 0013), other text through
  // the trigram index on the search column.
  const text = searchTextOf(f);
  const gramsOf =
    f.aadharHash || text === undefined
      ? undefined
      : DIGIT_SEARCH.test(text)
        ? 'search_digit_grams'
        : LETTER_SEARCH.test(text) && !commonGrams.has(text)
          ? 'search_letter_grams'
          : undefined;
  const search = f.aadharHash
    ? eq(users.aadharHash, b.bind(f.aadharHash))
    : text !== undefined && gramsOf
      ? sql`${sql.raw(gramsOf)}(${users.search}) @> array[${b.bindUnseen(text, 'text')}]`
      : text
        ? like(users.search, b.bind(likePattern(text)))
        : undefined;
  const rest = and(
    // The caller's network always bounds the result, whatever the filters ask for.
    f.type !== undefined ? networkScopeOfType(viewer, f.type, b) : networkScope(viewer, undefined, b),
    f.type !== undefined ? typeIs(f.type) : undefined,
    f.id ? eq(users.id, b.bind(f.id)) : undefined,
    f.masterDistributorId ? eq(users.masterDistributorId, b.bind(f.masterDistributorId)) : undefined,
    f.distributorId ? eq(users.distributorId, b.bind(f.distributorId)) : undefined,
    f.retailerId ? eq(users.retailerId, b.bind(f.retailerId)) : undefined,
  );
  return {
    where: and(rest, search),
    // Past the cap, the page is the newest rows that hold the text: the same substring as a plain test, which
    // no index serves, so the walk down the date index is the one plan (listPage's walkWhere).
    walkWhere:
      text && !f.aadharHash ? and(rest, sql`position(${b.bind(text)} in ${users.search}) > 0`) : undefined,
    /** No search, or one that is a key of its index whatever its value (an Aadhar hash, digits, letters): planOnce. */
    searchIsKey: !text || Boolean(f.aadharHash) || gramsOf !== undefined,
  };
}

/**
 * Where a list's total comes from: the network counters when the list is one type of one network (the
 * caller's, or a parent's the caller may see), otherwise a capped count.
 */
function totalFor(viewer: SessionUser, f: UserListFilter, b: Bindings): TotalSource {
  if (f.type === undefined || f.id || f.searchText || f.aadharHash) return 'capped';
  const parents = [f.masterDistributorId, f.distributorId, f.retailerId].filter(Boolean) as string[];
  const staff = networkScopeId(viewer) === WHOLE_NETWORK;
  if (parents.length > 1 || (parents.length === 1 && !staff && parents[0] !== viewer.id)) return 'capped';
  const scope = parents[0] ?? networkScopeId(viewer);
  return {
    kept: sql`coalesce((select ${networkCounts.total} from ${networkCounts} where ${networkCounts.scopeId} = ${b.bind(scope)} and ${networkCounts.type} = ${written(f.type)}), 0)`,
  };
}

/** What a list shows of a user: never the password hash or the Aadhar ciphertext and hash. */
const LISTED = {
  id: users.id,
  type: users.type,
  name: users.name,
  email: users.email,
  mobile: users.mobile,
  userName: users.userName,
  passwordUpdatedAt: users.passwordUpdatedAt,
  status: users.status,
  districtId: users.districtId,
  tehsilId: users.tehsilId,
  masterDistributorId: users.masterDistributorId,
  distributorId: users.distributorId,
  retailerId: users.retailerId,
  isMaster: users.isMaster,
  distributorCode: users.distributorCode,
  masterDistributorCommission: users.masterDistributorCommission,
  aadharLast4: users.aadharLast4,
  panId: users.panId,
  createdAt: users.createdAt,
};

const USER_SORT: SortWhitelist = {
  columns: { createdAt: users.createdAt },
  default: 'createdAt',
  id: users.id,
};

/**
 * A users list's statement without its rows: its filter, page, sort and total (the same for the rows and for the
 * JSON the database writes).
 */
async function userListOf(
  db: Queryable,
  viewer: SessionUser,
  filter: UserListFilter,
  page: { limit: number; offset: number },
) {
  const bindings = new Bindings();
  const text = searchTextOf(filter);
  const commonGrams =
    text && !filter.aadharHash && LETTER_SEARCH.test(text) ? await commonLetterGrams(db) : undefined;
  const { where, walkWhere, searchIsKey } = filterConditions(viewer, filter, bindings, commonGrams);
  return {
    statement: 'users',
    bindings,
    keys: (sortKey: SQL.Aliased) => db.select(keyFields(users.id, sortKey)).from(users).$dynamic(),
    where,
    walkWhere,
    // Equalities on the users' indexes (a type, a parent, an id, an Aadhar number's hash) and a search of digits
    // or letters (one key of the runs' index, whatever they are); a search of other text and a network's path prefix
    // (a list of every type) are planned with their values.
    planOnce: searchIsKey && (filter.type !== undefined || !scopedByPath(viewer)),
    page,
    sort: USER_SORT,
    total: totalFor(viewer, filter, bindings),
  };
}

/**
 * Users in the nested wire shape, with district, tehsil and parent names looked up for the list columns. The
 * page is found on the users table's indexes alone; the six lookups run for its rows only.
 */
export async function listWireUsers(
  db: Queryable,
  viewer: SessionUser,
  filter: UserListFilter,
  page: { limit: number; offset: number } = { limit: 1, offset: 0 },
): Promise<{ users: WireUser[]; total: number; capped: boolean }> {
  const { rows, total, capped } = await listPage(db, {
    ...(await userListOf(db, viewer, filter, page)),
    // The names are scalar lookups, not joins: the planner then has one join to order instead of seven
    // (planning seven joins cost several times more than running them, on the embedded database most of all).
    rows: (found, order, total) =>
      db
        .select({
          total,
          user: LISTED,
          wallet: { balance: wallets.balancePaise, clearing: wallets.clearingBalancePaise },
          districtName: nameOf(districts, users.districtId),
          tehsilName: nameOf(tehsils, users.tehsilId),
          mdName: userNameOf(users.masterDistributorId),
          distributorName: userNameOf(users.distributorId),
          retailerName: userNameOf(users.retailerId),
        })
        .from(found.keys)
        .innerJoin(users, eq(users.id, found.id))
        .leftJoin(wallets, eq(wallets.userId, users.id))
        .orderBy(...order),
  });
  return {
    users: rows.map((r) =>
      toWireUser(r.user, {
        wallet: r.wallet,
        district: { _id: r.user.districtId, name: r.districtName },
        tehsil: { _id: r.user.tehsilId, name: r.tehsilName },
        masterDistributor: { _id: r.user.masterDistributorId, name: r.mdName },
        distributor: { _id: r.user.distributorId, name: r.distributorName },
        retailer: { _id: r.user.retailerId, name: r.retailerName },
      }),
    ),
    total,
    capped,
  };
}

/**
 * listWireUsers for a page of one type, written as JSON by the database (wireUserJson: the same objects), with the
 * call's session look-up riding in its statement when it has one to give (db/list.ts, listPageJson).
 */
export async function listWireUsersJson(
  db: Queryable,
  viewer: SessionUser,
  filter: UserListFilter & { type: UserType },
  page: { limit: number; offset: number },
  riders?: RiderSource | null,
): Promise<{ users: string; total: number; capped: boolean }> {
  const { items, total, capped } = await listPageJson(db, {
    ...(await userListOf(db, viewer, filter, page)),
    riders,
    rows: (found, order, total) =>
      db
        .select(pageAsJson(wireUserJson(filter.type), order, total))
        .from(found.keys)
        .innerJoin(users, eq(users.id, found.id))
        .leftJoin(wallets, eq(wallets.userId, users.id)),
  });
  return { users: items, total, capped };
}

/**
 * Row locks a write takes on what it decides on: `share` on a parent it hangs a user under (its path must not
 * change until the write commits), `no key update` on the user it changes.
 */
export type UserLock = 'share' | 'no key update';

/** One user row by id, only if the viewer's network includes it; locked when a write will act on it. */
export async function findVisibleUser(
  db: Queryable,
  viewer: SessionUser,
  id: string,
  lock?: UserLock,
): Promise<UserRow | undefined> {
  const query = db
    .select()
    .from(users)
    .where(and(eq(users.id, id), networkScope(viewer)))
    .limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/** One user in the wire shape, only if visible. */
export async function fetchVisibleUser(db: Queryable, viewer: SessionUser, id: string) {
  return (await listWireUsers(db, viewer, { id })).users;
}
