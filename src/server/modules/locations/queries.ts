import { and, eq, ilike, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { LOCATION_MSG } from '../../../shared/schemas/locations';
import type { WireDistrict, WireState, WireTehsil } from '../../../shared/wire';
import { keyFields, listPage, type SortWhitelist } from '../../db/list';
import type { Queryable } from '../../db/open';
import { districts, states, tehsils } from '../../db/schema';
import { badRequest } from '../../http/errors';
import { likePattern, type Paging } from '../../http/paging';

export interface ListOptions extends Paging {
  sort?: 'name' | 'createdAt';
  order?: 'ASC' | 'DESC';
  /** One record by id. */
  _id?: string;
}

export const byId = (column: AnyPgColumn, id?: string) => (id ? eq(column, id) : undefined);

/** The sort whitelist of the named lists: name (ignoring case) or creation time, newest first by default. */
export const byNameOrDate = (columns: {
  name: AnyPgColumn;
  createdAt: AnyPgColumn;
  id: AnyPgColumn;
}): SortWhitelist => ({
  columns: { name: sql`lower(${columns.name})`, createdAt: columns.createdAt },
  default: 'createdAt',
  id: columns.id,
});

const search = (column: AnyPgColumn, text?: string) => (text ? ilike(column, likePattern(text)) : undefined);

const iso = (d: Date) => d.toISOString();

export async function listStates(db: Queryable, opts: ListOptions) {
  const where = and(search(states.name, opts.searchText), byId(states.id, opts._id));
  const { rows, total } = await listPage(db, {
    keys: (sortKey) => db.select(keyFields(states.id, sortKey)).from(states).$dynamic(),
    rows: (page, order) =>
      db
        .select({ id: states.id, name: states.name, createdAt: states.createdAt })
        .from(page.keys)
        .innerJoin(states, eq(states.id, page.id))
        .orderBy(...order),
    where,
    page: opts,
    sort: byNameOrDate(states),
    total: 'exact',
  });
  return {
    items: rows.map((r): WireState => ({ _id: r.id, name: r.name, createdAt: iso(r.createdAt) })),
    total,
  };
}

export async function listDistricts(db: Queryable, opts: ListOptions & { stateId?: string }) {
  const where = and(
    search(districts.name, opts.searchText),
    byId(districts.id, opts._id),
    opts.stateId ? eq(districts.stateId, opts.stateId) : undefined,
  );
  const { rows, total } = await listPage(db, {
    keys: (sortKey) => db.select(keyFields(districts.id, sortKey)).from(districts).$dynamic(),
    rows: (page, order) =>
      db
        .select({ district: districts, stateName: states.name })
        .from(page.keys)
        .innerJoin(districts, eq(districts.id, page.id))
        .innerJoin(states, eq(states.id, districts.stateId))
        .orderBy(...order),
    where,
    page: opts,
    sort: byNameOrDate(districts),
    total: 'exact',
  });
  return {
    items: rows.map(
      (r): WireDistrict => ({
        _id: r.district.id,
        name: r.district.name,
        stateId: { _id: r.district.stateId, name: r.stateName },
        createdAt: iso(r.district.createdAt),
      }),
    ),
    total,
  };
}

export async function listTehsils(
  db: Queryable,
  opts: ListOptions & { stateId?: string; districtId?: string },
) {
  const where = and(
    search(tehsils.name, opts.searchText),
    byId(tehsils.id, opts._id),
    opts.districtId ? eq(tehsils.districtId, opts.districtId) : undefined,
    opts.stateId ? eq(tehsils.stateId, opts.stateId) : undefined,
  );
  const { rows, total } = await listPage(db, {
    keys: (sortKey) => db.select(keyFields(tehsils.id, sortKey)).from(tehsils).$dynamic(),
    rows: (page, order) =>
      db
        .select({ tehsil: tehsils, stateName: states.name, districtName: districts.name })
        .from(page.keys)
        .innerJoin(tehsils, eq(tehsils.id, page.id))
        .innerJoin(districts, eq(districts.id, tehsils.districtId))
        .innerJoin(states, eq(states.id, tehsils.stateId))
        .orderBy(...order),
    where,
    page: opts,
    sort: byNameOrDate(tehsils),
    total: 'exact',
  });
  return {
    items: rows.map(
      (r): WireTehsil => ({
        _id: r.tehsil.id,
        name: r.tehsil.name,
        districtId: { _id: r.tehsil.districtId, name: r.districtName },
        stateId: { _id: r.tehsil.stateId, name: r.stateName },
        createdAt: iso(r.tehsil.createdAt),
      }),
    ),
    total,
  };
}

/** One link of a location chain to check: the id given and the body field it came from. */
type ChainLink = { id: string; param: string };

/**
 * The one check that a state, district and tehsil exist and chain (district in state, tehsil in district),
 * used by every form that picks a place: tehsils, users and onboarding applications. With `lock` (inside a
 * write's transaction) the rows are share-locked, state first, so a concurrent move of any of them either
 * waits for the write or is seen by it.
 */
export async function checkLocationChain(
  db: Queryable,
  chain: { state?: ChainLink; district: ChainLink; tehsil?: ChainLink },
  opts: { lock?: boolean } = {},
) {
  const share = opts.lock ? ('share' as const) : undefined;
  if (chain.state) {
    const query = db.select({ id: states.id }).from(states).where(eq(states.id, chain.state.id));
    const [state] = share ? await query.for(share) : await query;
    if (!state) throw badRequest(LOCATION_MSG.stateMissing, chain.state.param);
  }
  const districtQuery = db
    .select({ stateId: districts.stateId })
    .from(districts)
    .where(eq(districts.id, chain.district.id));
  const [district] = share ? await districtQuery.for(share) : await districtQuery;
  if (!district) throw badRequest(LOCATION_MSG.districtMissing, chain.district.param);
  if (chain.state && district.stateId !== chain.state.id) {
    throw badRequest(LOCATION_MSG.districtOutsideState, chain.district.param);
  }
  if (!chain.tehsil) return;
  const tehsilQuery = db
    .select({ districtId: tehsils.districtId })
    .from(tehsils)
    .where(eq(tehsils.id, chain.tehsil.id));
  const [tehsil] = share ? await tehsilQuery.for(share) : await tehsilQuery;
  if (!tehsil) throw badRequest(LOCATION_MSG.tehsilMissing, chain.tehsil.param);
  if (tehsil.districtId !== chain.district.id)
    throw badRequest(LOCATION_MSG.tehsilOutsideDistrict, chain.tehsil.param);
}
