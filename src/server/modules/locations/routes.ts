import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { STAFF_TYPES, type UserType } from '../../../shared/enums';
import { PUBLIC_LOOKUP_LIMIT } from '../../../shared/rules';
import { districtSchema, LOCATION_MSG, stateSchema, tehsilSchema } from '../../../shared/schemas/locations';
import { districts, states, tehsils, users } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
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
    const duplicate = LOCATION_MSG.duplicateDistrict(input.name);
    if (await nameTaken(db, districts, input.name, { column: districts.stateId, id: input.stateId }, id)) {
      throw conflict(duplicate, 'name');
    }
    return guardUnique(duplicate, () =>
      inTransaction(db, async (tx) => {
        const [state] = await tx
          .select({ id: states.id })
          .from(states)
          .where(eq(states.id, input.stateId))
          .for('share');
        if (!state) throw badRequest(LOCATION_MSG.stateMissing, 'stateId');
        if (!id) return (await tx.insert(districts).values(input).returning())[0];
        // The district row is locked first, so its tehsils follow the state it ends up in.
        const [row] = await tx.update(districts).set(input).where(eq(districts.id, id)).returning();
        if (!row) throw notFound(LOCATION_MSG.districtNotFound);
        // A district that moves to another state takes its tehsils along.
        await tx.update(tehsils).set({ stateId: input.stateId }).where(eq(tehsils.districtId, id));
        return row;
      }),
    );
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
    const duplicate = LOCATION_MSG.duplicateTehsil(input.name);
    if (await nameTaken(db, tehsils, input.name, { column: tehsils.districtId, id: input.districtId }, id)) {
      throw conflict(duplicate, 'name');
    }
    return guardUnique(duplicate, () =>
      inTransaction(db, async (tx) => {
        // Share-locked: the district cannot move to another state until this tehsil is saved under it.
        await checkLocationChain(
          tx,
          {
            state: { id: input.stateId, param: 'stateId' },
            district: { id: input.districtId, param: 'districtId' },
          },
          { lock: true },
        );
        if (!id) return (await tx.insert(tehsils).values(input).returning())[0];
        const [row] = await tx.update(tehsils).set(input).where(eq(tehsils.id, id)).returning();
        if (!row) throw notFound(LOCATION_MSG.tehsilNotFound);
        // A tehsil that moves to another district takes its users along, so theirs stays the tehsil's.
        await tx.update(users).set({ districtId: input.districtId }).where(eq(users.tehsilId, id));
        return row;
      }),
    );
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
