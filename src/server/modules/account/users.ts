import { and, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { UserType } from '../../../shared/enums';
import type { WireUser } from '../../../shared/wire';
import { countOf, listPage } from '../../db/list';
import type { Queryable } from '../../db/open';
import { districts, tehsils, users, wallets } from '../../db/schema';
import { likePattern } from '../../http/paging';
import { networkScope } from './scope';
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
  const search = f.searchText
    ? or(
        ilike(users.name, likePattern(f.searchText)),
        ilike(users.userName, likePattern(f.searchText)),
        ilike(users.email, likePattern(f.searchText)),
        ilike(users.mobile, likePattern(f.searchText)),
        f.aadharHash ? eq(users.aadharHash, f.aadharHash) : undefined,
      )
    : undefined;
  return and(
    // The caller's network always bounds the result, whatever the filters ask for.
    networkScope(viewer),
    f.type !== undefined ? eq(users.type, f.type) : undefined,
    f.id ? eq(users.id, f.id) : undefined,
    f.masterDistributorId ? eq(users.masterDistributorId, f.masterDistributorId) : undefined,
    f.distributorId ? eq(users.distributorId, f.distributorId) : undefined,
    f.retailerId ? eq(users.retailerId, f.retailerId) : undefined,
    search,
  );
}

/** Users in the nested wire shape, with district, tehsil and parent names looked up for the list columns. */
export async function listWireUsers(
  db: Queryable,
  viewer: UserRow,
  filter: UserListFilter,
  page: { limit: number; offset: number } = { limit: 1, offset: 0 },
): Promise<{ users: WireUser[]; total: number }> {
  const where = filterConditions(viewer, filter);
  const { rows, total } = await listPage(
    db
      .select({
        user: users,
        wallet: { balance: wallets.balancePaise, clearing: wallets.clearingBalancePaise },
        district: { _id: districts.id, name: districts.name },
        tehsil: { _id: tehsils.id, name: tehsils.name },
        md: { _id: md.id, name: md.name },
        dist: { _id: dist.id, name: dist.name },
        ret: { _id: ret.id, name: ret.name },
      })
      .from(users)
      .leftJoin(wallets, eq(wallets.userId, users.id))
      .leftJoin(districts, eq(districts.id, users.districtId))
      .leftJoin(tehsils, eq(tehsils.id, users.tehsilId))
      .leftJoin(md, eq(md.id, users.masterDistributorId))
      .leftJoin(dist, eq(dist.id, users.distributorId))
      .leftJoin(ret, eq(ret.id, users.retailerId))
      .$dynamic(),
    db.select(countOf()).from(users).$dynamic(),
    where,
    page,
    [desc(users.createdAt), desc(users.id)],
  );
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
