import { eq } from 'drizzle-orm';
import { LOCATION_MSG } from '../../../shared/schemas/locations';
import type { WireDistrict, WireState, WireTehsil } from '../../../shared/wire';
import { listNamed, type NamedListRequest } from '../../db/named';
import type { Queryable } from '../../db/open';
import { districts, states, tehsils } from '../../db/schema';
import { badRequest } from '../../http/errors';

const iso = (d: Date) => d.toISOString();

export async function listStates(db: Queryable, request: NamedListRequest) {
  const { rows, total } = await listNamed(db, states, request, {
    rows: (page, order, total) =>
      db
        .select({ total, state: states })
        .from(page.keys)
        .innerJoin(states, eq(states.id, page.id))
        .orderBy(...order),
  });
  return {
    items: rows.map(
      ({ state }): WireState => ({ _id: state.id, name: state.name, createdAt: iso(state.createdAt) }),
    ),
    total,
  };
}

export async function listDistricts(db: Queryable, request: NamedListRequest & { stateId?: string }) {
  const { rows, total } = await listNamed(db, districts, request, {
    filters: [request.stateId ? eq(districts.stateId, request.stateId) : undefined],
    rows: (page, order, total) =>
      db
        .select({ total, district: districts, stateName: states.name })
        .from(page.keys)
        .innerJoin(districts, eq(districts.id, page.id))
        .innerJoin(states, eq(states.id, districts.stateId))
        .orderBy(...order),
  });
  return {
    items: rows.map(
      ({ district, stateName }): WireDistrict => ({
        _id: district.id,
        name: district.name,
        stateId: { _id: district.stateId, name: stateName },
        createdAt: iso(district.createdAt),
      }),
    ),
    total,
  };
}

export async function listTehsils(
  db: Queryable,
  request: NamedListRequest & { stateId?: string; districtId?: string },
) {
  const { rows, total } = await listNamed(db, tehsils, request, {
    filters: [
      request.districtId ? eq(tehsils.districtId, request.districtId) : undefined,
      request.stateId ? eq(tehsils.stateId, request.stateId) : undefined,
    ],
    rows: (page, order, total) =>
      db
        .select({ total, tehsil: tehsils, stateName: states.name, districtName: districts.name })
        .from(page.keys)
        .innerJoin(tehsils, eq(tehsils.id, page.id))
        .innerJoin(districts, eq(districts.id, tehsils.districtId))
        .innerJoin(states, eq(states.id, tehsils.stateId))
        .orderBy(...order),
  });
  return {
    items: rows.map(
      ({ tehsil, stateName, districtName }): WireTehsil => ({
        _id: tehsil.id,
        name: tehsil.name,
        districtId: { _id: tehsil.districtId, name: districtName },
        stateId: { _id: tehsil.stateId, name: stateName },
        createdAt: iso(tehsil.createdAt),
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
