import { and, eq, like, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { UserType } from '../../../shared/enums';
import type { WireUser } from '../../../shared/wire';
import { keyFields, listPage, type SortWhitelist, type TotalSource } from '../../db/list';
import type { Queryable } from '../../db/open';
import { districts, tehsils, users, wallets } from '../../db/schema';
import { likePattern } from '../../http/paging';
import { countsOf, WHOLE_NETWORK } from './counts';
import { networkScope, networkScopeId, networkScopeOfType } from './scope';
import type { UserRow } from './sessions';
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

const md = alias(users, 'parent_md');
const dist = alias(users, 'parent_distributor');
const ret = alias(users, 'parent_retailer');

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

function filterConditions(viewer: UserRow, f: UserListFilter): SQL | undefined {
  // A 12-digit search is an Aadhar number, found through its own index; anything else is a substring of the
  // name, user name, email or mobile, found through the trigram index on the search column.
  const search = f.aadharHash
    ? eq(users.aadharHash, f.aadharHash)
    : f.searchText
      ? like(users.search, likePattern(f.searchText.toLowerCase()))
      : undefined;
  return and(
    // The caller's network always bounds the result, whatever the filters ask for.
    f.type !== undefined ? networkScopeOfType(viewer, f.type) : networkScope(viewer),
    f.type !== undefined ? eq(users.type, f.type) : undefined,
    f.id ? eq(users.id, f.id) : undefined,
    f.masterDistributorId ? eq(users.masterDistributorId, f.masterDistributorId) : undefined,
    f.distributorId ? eq(users.distributorId, f.distributorId) : undefined,
    f.retailerId ? eq(users.retailerId, f.retailerId) : undefined,
    search,
  );
}

/**
 * Where a list's total comes from: the network counters when the list is one type of one network (the
 * caller's, or a parent's the caller may see), otherwise a capped count.
 */
function totalFor(db: Queryable, viewer: UserRow, f: UserListFilter): TotalSource {
  if (f.type === undefined || f.id || f.searchText || f.aadharHash) return 'capped';
  const parents = [f.masterDistributorId, f.distributorId, f.retailerId].filter(Boolean) as string[];
  const staff = networkScopeId(viewer) === WHOLE_NETWORK;
  if (parents.length > 1 || (parents.length === 1 && !staff && parents[0] !== viewer.id)) return 'capped';
  const scope = parents[0] ?? networkScopeId(viewer);
  const type = f.type;
  return { known: async () => (await countsOf(db, scope)).get(type)?.total ?? 0 };
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
 * page is found on the users table's indexes alone; the six lookups run for its rows only.
 */
export async function listWireUsers(
  db: Queryable,
  viewer: UserRow,
  filter: UserListFilter,
  page: { limit: number; offset: number } = { limit: 1, offset: 0 },
): Promise<{ users: WireUser[]; total: number; capped: boolean }> {
  const { rows, total, capped } = await listPage(db, {
    keys: (sortKey) => db.select(keyFields(users.id, sortKey)).from(users).$dynamic(),
    rows: (found, order) =>
      db
        .select({
          user: LISTED,
          wallet: { balance: wallets.balancePaise, clearing: wallets.clearingBalancePaise },
          district: { _id: districts.id, name: districts.name },
          tehsil: { _id: tehsils.id, name: tehsils.name },
          md: { _id: md.id, name: md.name },
          dist: { _id: dist.id, name: dist.name },
          ret: { _id: ret.id, name: ret.name },
        })
        .from(found.keys)
        .innerJoin(users, eq(users.id, found.id))
        .leftJoin(wallets, eq(wallets.userId, users.id))
        .leftJoin(districts, eq(districts.id, users.districtId))
        .leftJoin(tehsils, eq(tehsils.id, users.tehsilId))
        .leftJoin(md, eq(md.id, users.masterDistributorId))
        .leftJoin(dist, eq(dist.id, users.distributorId))
        .leftJoin(ret, eq(ret.id, users.retailerId))
        .orderBy(...order),
    where: filterConditions(viewer, filter),
    page,
    sort: USER_SORT,
    total: totalFor(db, viewer, filter),
  });
  return {
    users: rows.map((r) =>
      toWireUser(r.user, {
        wallet: r.wallet,
        district: r.district,
        tehsil: r.tehsil,
        masterDistributor: r.md,
        distributor: r.dist,
        retailer: r.ret,
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
  viewer: UserRow,
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
export async function fetchVisibleUser(db: Queryable, viewer: UserRow, id: string) {
  return (await listWireUsers(db, viewer, { id })).users;
}
