import { and, eq, like, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { UserType } from '../../../shared/enums';
import type { WireUser } from '../../../shared/wire';
import { keyFields, listPage, type SortWhitelist, type TotalSource } from '../../db/list';
import type { Queryable } from '../../db/open';
import { districts, networkCounts, tehsils, users, wallets } from '../../db/schema';
import { likePattern } from '../../db/search';
import {
  networkScope,
  networkScopeId,
  networkScopeOfType,
  scopedByPath,
  WHOLE_NETWORK,
} from '../network/index';
import type { SessionUser, UserRow } from './sessions';
import { toWireUser } from './wire';

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
 * A search the digit runs' index answers (search_digit_grams keeps runs of 4 to 12 digits, migration 0009): a
 * mobile number or part of one, the typeahead's usual input, found as one key of that index whatever the digits,
 * where the trigram index would hand over every holder of '000' to be tested again.
 */
const DIGIT_SEARCH = /^[0-9]{4,12}$/;

/** A search text as the lists compare it (the search column is lower-cased). */
const searchTextOf = (f: UserListFilter) => f.searchText?.toLowerCase();

function filterConditions(viewer: SessionUser, f: UserListFilter) {
  // A 12-digit search is an Aadhar number, found through its own index; anything else is a substring of the
  // name, user name, email or mobile: 4 to 12 digits through the index of the column's runs of digits (the same
  // matches as the substring), other text through the trigram index on the search column.
  const text = searchTextOf(f);
  const digits = !f.aadharHash && text !== undefined && DIGIT_SEARCH.test(text);
  const search = f.aadharHash
    ? eq(users.aadharHash, f.aadharHash)
    : digits
      ? sql`search_digit_grams(${users.search}) @> array[${text}]`
      : text
        ? like(users.search, likePattern(text))
        : undefined;
  const rest = and(
    // The caller's network always bounds the result, whatever the filters ask for.
    f.type !== undefined ? networkScopeOfType(viewer, f.type) : networkScope(viewer),
    f.type !== undefined ? eq(users.type, f.type) : undefined,
    f.id ? eq(users.id, f.id) : undefined,
    f.masterDistributorId ? eq(users.masterDistributorId, f.masterDistributorId) : undefined,
    f.distributorId ? eq(users.distributorId, f.distributorId) : undefined,
    f.retailerId ? eq(users.retailerId, f.retailerId) : undefined,
  );
  return {
    where: and(rest, search),
    // Past the cap, the page is the newest rows that hold the text: the same substring as a plain test, which
    // no index serves, so the walk down the date index is the one plan (listPage's walkWhere).
    walkWhere: text && !f.aadharHash ? and(rest, sql`position(${text} in ${users.search}) > 0`) : undefined,
    /** No search, or one that is a key of its index whatever its value (an Aadhar hash, digits). */
    searchIsKey: !text || Boolean(f.aadharHash) || digits,
  };
}

/**
 * Where a list's total comes from: the network counters when the list is one type of one network (the
 * caller's, or a parent's the caller may see), otherwise a capped count.
 */
function totalFor(viewer: SessionUser, f: UserListFilter): TotalSource {
  if (f.type === undefined || f.id || f.searchText || f.aadharHash) return 'capped';
  const parents = [f.masterDistributorId, f.distributorId, f.retailerId].filter(Boolean) as string[];
  const staff = networkScopeId(viewer) === WHOLE_NETWORK;
  if (parents.length > 1 || (parents.length === 1 && !staff && parents[0] !== viewer.id)) return 'capped';
  const scope = parents[0] ?? networkScopeId(viewer);
  return {
    kept: sql`coalesce((select ${networkCounts.total} from ${networkCounts} where ${networkCounts.scopeId} = ${scope} and ${networkCounts.type} = ${f.type}), 0)`,
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
 * Users in the nested wire shape, with district, tehsil and parent names looked up for the list columns. The
 * page is found on the users table's indexes alone; the lookups run for its rows only.
 */
export async function listWireUsers(
  db: Queryable,
  viewer: SessionUser,
  filter: UserListFilter,
  page: { limit: number; offset: number } = { limit: 1, offset: 0 },
): Promise<{ users: WireUser[]; total: number; capped: boolean }> {
  const { where, walkWhere, searchIsKey } = filterConditions(viewer, filter);
  // A network's path prefix (a list of every type) is planned with its value: the prefix decides the path. Every
  // other list is prepared, a search of text too: each of its statements has one plan whatever the text (the
  // trigram index up to the cap; past the cap, a second statement walks the date index: listPage), so
  // PostgreSQL keeps that generic plan once it has seen it cost no more.
  const pathPrefix = filter.type === undefined && scopedByPath(viewer);
  // Equalities on the users' indexes (a type, a parent, an id, an Aadhar number's hash) and a search of digits
  // (one key of the runs' index, whatever they are).
  const equalities = searchIsKey && !pathPrefix;
  const { rows, total, capped } = await listPage(db, {
    keys: (sortKey) => db.select(keyFields(users.id, sortKey)).from(users).$dynamic(),
    where,
    walkWhere,
    equalities,
    prepared: pathPrefix ? undefined : 'users',
    page,
    sort: USER_SORT,
    total: totalFor(viewer, filter),
    // The names are scalar lookups, not joins: the planner then has one join to order instead of seven.
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
