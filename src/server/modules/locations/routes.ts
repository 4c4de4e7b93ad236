import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { STAFF_TYPES, type UserType } from '../../../shared/enums';
import { PUBLIC_LOOKUP_LIMIT } from '../../../shared/rules';
import { districtSchema, LOCATION_MSG, stateSchema, tehsilSchema } from '../../../shared/schemas/locations';
import { districts, states, tehsils } from '../../db/schema';
import { badRequest, conflict, guardUnique, notFound, parseInput } from '../../http/errors';
import { pagingQuery, sortQuery } from '../../http/paging';
import { idParam, optionalUuid } from '../../http/params';
import { requireRole } from '../../http/session';
import { checkLocationChain, listDistricts, listStates, listTehsils, nameTaken } from './queries';

/** Every location list also takes `_id`, so a form can load the one record it shows. */
const listQuery = pagingQuery
  .and(sortQuery(['name', 'createdAt']))
  .and(z.object({ _id: optionalUuid('Invalid id') }));

/**
 * The location lookups are public and read-only (the onboarding form needs them): callers other than staff
 * get at most 10 rows a page.
 */
function lookupLimit(request: FastifyRequest, limit: number) {
  const staff = request.auth && STAFF_TYPES.includes(request.auth.user.type as UserType);
  return staff ? limit : Math.min(limit, PUBLIC_LOOKUP_LIMIT);
}

export default async function locationRoutes(app: FastifyInstance) {
  const { db } = app;
  const lookup = { config: { access: 'optional' as const } };

  // States -----------------------------------------------------------------
  app.get('/state/fetch', lookup, async (request) => {
    const q = parseInput(listQuery, request.query);
    const { items, total } = await listStates(db, { ...q, limit: lookupLimit(request, q.limit) });
    return { result: { state: items, totalCounts: total } };
  });

  const saveState = async (input: z.infer<typeof stateSchema>, id?: string) => {
    if (await nameTaken(db, states, input.name, undefined, id))
      throw conflict(LOCATION_MSG.duplicateState(input.name), 'name');
    return guardUnique(LOCATION_MSG.duplicateState(input.name), async () => {
      if (!id) return (await db.insert(states).values(input).returning())[0];
      const [row] = await db.update(states).set(input).where(eq(states.id, id)).returning();
      if (!row) throw notFound(LOCATION_MSG.stateNotFound);
      return row;
    });
  };
  app.post('/state/create', { preHandler: requireRole('states', 'create') }, async (request) => {
    const row = await saveState(parseInput(stateSchema, request.body));
    return {
      result: { _id: row.id, name: row.name, createdAt: row.createdAt.toISOString() },
      message: LOCATION_MSG.stateCreated,
    };
  });
  app.post('/state/update/:id', { preHandler: requireRole('states', 'edit') }, async (request) => {
    const { id } = parseInput(idParam, request.params);
    const row = await saveState(parseInput(stateSchema, request.body), id);
    return {
      result: { _id: row.id, name: row.name, createdAt: row.createdAt.toISOString() },
      message: LOCATION_MSG.stateUpdated,
    };
  });

  // Districts --------------------------------------------------------------
  app.get('/districts/fetch', lookup, async (request) => {
    const q = parseInput(
      listQuery.and(z.object({ stateId: optionalUuid(LOCATION_MSG.invalidState) })),
      request.query,
    );
    const { items, total } = await listDistricts(db, { ...q, limit: lookupLimit(request, q.limit) });
    return { result: { districts: items, totalCounts: total } };
  });

  const saveDistrict = async (input: z.infer<typeof districtSchema>, id?: string) => {
    const [state] = await db.select({ id: states.id }).from(states).where(eq(states.id, input.stateId));
    if (!state) throw badRequest(LOCATION_MSG.stateMissing, 'stateId');
    const duplicate = LOCATION_MSG.duplicateDistrict(input.name);
    if (await nameTaken(db, districts, input.name, { column: districts.stateId, id: input.stateId }, id)) {
      throw conflict(duplicate, 'name');
    }
    return guardUnique(duplicate, async () => {
      if (!id) return (await db.insert(districts).values(input).returning())[0];
      const [row] = await db.transaction(async (tx) => {
        const updated = await tx.update(districts).set(input).where(eq(districts.id, id)).returning();
        // A district that moves to another state takes its tehsils along.
        if (updated[0])
          await tx.update(tehsils).set({ stateId: input.stateId }).where(eq(tehsils.districtId, id));
        return updated;
      });
      if (!row) throw notFound(LOCATION_MSG.districtNotFound);
      return row;
    });
  };
  app.post('/districts/create', { preHandler: requireRole('districts', 'create') }, async (request) => {
    const row = await saveDistrict(parseInput(districtSchema, request.body));
    return { result: { _id: row.id }, message: LOCATION_MSG.districtCreated };
  });
  app.post('/districts/update/:id', { preHandler: requireRole('districts', 'edit') }, async (request) => {
    const { id } = parseInput(idParam, request.params);
    const row = await saveDistrict(parseInput(districtSchema, request.body), id);
    return { result: { _id: row.id }, message: LOCATION_MSG.districtUpdated };
  });

  // Tehsils ----------------------------------------------------------------
  app.get('/tehsil/fetch', lookup, async (request) => {
    const q = parseInput(
      listQuery.and(
        z.object({
          stateId: optionalUuid(LOCATION_MSG.invalidState),
          districtId: optionalUuid(LOCATION_MSG.invalidDistrict),
        }),
      ),
      request.query,
    );
    const { items, total } = await listTehsils(db, { ...q, limit: lookupLimit(request, q.limit) });
    return { result: { tehsil: items, totalCounts: total } };
  });

  const saveTehsil = async (input: z.infer<typeof tehsilSchema>, id?: string) => {
    await checkLocationChain(db, {
      state: { id: input.stateId, param: 'stateId' },
      district: { id: input.districtId, param: 'districtId' },
    });
    const duplicate = LOCATION_MSG.duplicateTehsil(input.name);
    if (await nameTaken(db, tehsils, input.name, { column: tehsils.districtId, id: input.districtId }, id)) {
      throw conflict(duplicate, 'name');
    }
    return guardUnique(duplicate, async () => {
      if (!id) return (await db.insert(tehsils).values(input).returning())[0];
      const [row] = await db.update(tehsils).set(input).where(eq(tehsils.id, id)).returning();
      if (!row) throw notFound(LOCATION_MSG.tehsilNotFound);
      return row;
    });
  };
  app.post('/tehsil/create', { preHandler: requireRole('tehsils', 'create') }, async (request) => {
    const row = await saveTehsil(parseInput(tehsilSchema, request.body));
    return { result: { _id: row.id }, message: LOCATION_MSG.tehsilCreated };
  });
  app.post('/tehsil/update/:id', { preHandler: requireRole('tehsils', 'edit') }, async (request) => {
    const { id } = parseInput(idParam, request.params);
    const row = await saveTehsil(parseInput(tehsilSchema, request.body), id);
    return { result: { _id: row.id }, message: LOCATION_MSG.tehsilUpdated };
  });
}
