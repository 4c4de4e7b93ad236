import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_TYPES, type UserType } from '../../../shared/enums';
import { PUBLIC_LOOKUP_LIMIT } from '../../../shared/rules';
import { districtSchema, LOCATION_MSG, stateSchema, tehsilSchema } from '../../../shared/schemas/locations';
import {
  envelope,
  listEnvelope,
  wireDistrictSchema,
  wireStateSchema,
  wireTehsilSchema,
} from '../../../shared/wire';
import { rowView, saveNamed } from '../../db/named';
import { districts, states, tehsils, users } from '../../db/schema';
import { badRequest } from '../../http/errors';
import { pagingQuery, sortQuery } from '../../http/paging';
import { idParam, optionalUuid } from '../../http/params';
import { listReads } from '../../http/reader';
import { requireRole, whoMay } from '../../http/session';
import { runCommand } from '../audit/index';
import { checkLocationChain, listDistricts, listStates, listTehsils } from './queries';

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

const saved = <S extends z.ZodType>(result: S) => ({ 200: envelope(result) });
const listOf = <K extends string, S extends z.ZodType>(key: K, item: S) => ({ 200: listEnvelope(key, item) });
const idOnly = z.strictObject({ _id: z.string() });
const tags = ['locations'];

export default async function locationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // A staff session's pages come from the replica; a public look-up (no session) from the primary.
  const lookup = { config: { access: 'optional' as const, ...listReads() } };
  const publicLookup = 'public (at most 10 a page without a staff session)';
  const stateQuery = listQuery;
  const districtQuery = listQuery.and(z.object({ stateId: optionalUuid(LOCATION_MSG.invalidState) }));
  const tehsilQuery = listQuery.and(
    z.object({
      stateId: optionalUuid(LOCATION_MSG.invalidState),
      districtId: optionalUuid(LOCATION_MSG.invalidDistrict),
    }),
  );

  // States -----------------------------------------------------------------
  app.get(
    '/state/fetch',
    {
      ...lookup,
      schema: {
        tags,
        summary: 'States',
        description: publicLookup,
        querystring: stateQuery,
        response: listOf('state', wireStateSchema),
      },
    },
    async (request) => {
      const q = request.query;
      const { items, total } = await listStates(request.reader, {
        ...q,
        limit: lookupLimit(request, q.limit),
      });
      return { result: { state: items, totalCounts: total } };
    },
  );

  const saveState = (request: FastifyRequest, input: z.infer<typeof stateSchema>, id?: string) =>
    runCommand(request, { action: id ? 'state.update' : 'state.create', entity: 'state' }, async (tx) => {
      const { before, row } = await saveNamed(tx, states, {
        id,
        values: input,
        messages: {
          duplicate: LOCATION_MSG.duplicateState(input.name),
          notFound: LOCATION_MSG.stateNotFound,
        },
      });
      return {
        entityId: row.id,
        before: id ? rowView(before) : null,
        after: rowView(row),
        result: { _id: row.id, name: row.name, createdAt: row.createdAt.toISOString() },
      };
    });
  app.post(
    '/state/create',
    {
      preValidation: requireRole('states', 'create'),
      schema: {
        tags,
        summary: 'Create a state',
        description: whoMay('states', 'create'),
        body: stateSchema,
        response: saved(wireStateSchema),
      },
    },
    async (request) => {
      const result = await saveState(request, request.body);
      return { result, message: LOCATION_MSG.stateCreated };
    },
  );
  app.post(
    '/state/update/:id',
    {
      preValidation: requireRole('states', 'edit'),
      schema: {
        tags,
        summary: 'Rename a state',
        description: whoMay('states', 'edit'),
        params: idParam,
        body: stateSchema,
        response: saved(wireStateSchema),
      },
    },
    async (request) => {
      const { id } = request.params;
      const result = await saveState(request, request.body, id);
      return { result, message: LOCATION_MSG.stateUpdated };
    },
  );

  // Districts --------------------------------------------------------------
  app.get(
    '/districts/fetch',
    {
      ...lookup,
      schema: {
        tags,
        summary: 'Districts',
        description: publicLookup,
        querystring: districtQuery,
        response: listOf('districts', wireDistrictSchema),
      },
    },
    async (request) => {
      const q = request.query;
      const { items, total } = await listDistricts(request.reader, {
        ...q,
        limit: lookupLimit(request, q.limit),
      });
      return { result: { districts: items, totalCounts: total } };
    },
  );

  const saveDistrict = (request: FastifyRequest, input: z.infer<typeof districtSchema>, id?: string) =>
    runCommand(
      request,
      { action: id ? 'district.update' : 'district.create', entity: 'district' },
      async (tx) => {
        const [state] = await tx
          .select({ id: states.id })
          .from(states)
          .where(eq(states.id, input.stateId))
          .for('share');
        if (!state) throw badRequest(LOCATION_MSG.stateMissing, 'stateId');
        // The district row is locked (in saveNamed) after its state, so its tehsils follow the state it ends up in.
        const { before, row } = await saveNamed(tx, districts, {
          id,
          values: input,
          parent: { column: districts.stateId, id: input.stateId },
          messages: {
            duplicate: LOCATION_MSG.duplicateDistrict(input.name),
            notFound: LOCATION_MSG.districtNotFound,
          },
        });
        // A district that moves to another state takes its tehsils along.
        if (id) await tx.update(tehsils).set({ stateId: input.stateId }).where(eq(tehsils.districtId, id));
        return { entityId: row.id, before: id ? rowView(before) : null, after: rowView(row), result: row };
      },
    );
  app.post(
    '/districts/create',
    {
      preValidation: requireRole('districts', 'create'),
      schema: {
        tags,
        summary: 'Create a district',
        description: whoMay('districts', 'create'),
        body: districtSchema,
        response: saved(idOnly),
      },
    },
    async (request) => {
      const row = await saveDistrict(request, request.body);
      return { result: { _id: row.id }, message: LOCATION_MSG.districtCreated };
    },
  );
  app.post(
    '/districts/update/:id',
    {
      preValidation: requireRole('districts', 'edit'),
      schema: {
        tags,
        summary: 'Change a district (moving it moves its tehsils)',
        description: whoMay('districts', 'edit'),
        params: idParam,
        body: districtSchema,
        response: saved(idOnly),
      },
    },
    async (request) => {
      const row = await saveDistrict(request, request.body, request.params.id);
      return { result: { _id: row.id }, message: LOCATION_MSG.districtUpdated };
    },
  );

  // Tehsils ----------------------------------------------------------------
  app.get(
    '/tehsil/fetch',
    {
      ...lookup,
      schema: {
        tags,
        summary: 'Tehsils',
        description: publicLookup,
        querystring: tehsilQuery,
        response: listOf('tehsil', wireTehsilSchema),
      },
    },
    async (request) => {
      const q = request.query;
      const { items, total } = await listTehsils(request.reader, {
        ...q,
        limit: lookupLimit(request, q.limit),
      });
      return { result: { tehsil: items, totalCounts: total } };
    },
  );

  const saveTehsil = (request: FastifyRequest, input: z.infer<typeof tehsilSchema>, id?: string) =>
    runCommand(request, { action: id ? 'tehsil.update' : 'tehsil.create', entity: 'tehsil' }, async (tx) => {
      // Share-locked: the district cannot move to another state until this tehsil is saved under it.
      await checkLocationChain(
        tx,
        {
          state: { id: input.stateId, param: 'stateId' },
          district: { id: input.districtId, param: 'districtId' },
        },
        { lock: true },
      );
      const { before, row } = await saveNamed(tx, tehsils, {
        id,
        values: input,
        parent: { column: tehsils.districtId, id: input.districtId },
        messages: {
          duplicate: LOCATION_MSG.duplicateTehsil(input.name),
          notFound: LOCATION_MSG.tehsilNotFound,
        },
      });
      // A tehsil that moves to another district takes its users along, so theirs stays the tehsil's.
      if (id) await tx.update(users).set({ districtId: input.districtId }).where(eq(users.tehsilId, id));
      return { entityId: row.id, before: id ? rowView(before) : null, after: rowView(row), result: row };
    });
  app.post(
    '/tehsil/create',
    {
      preValidation: requireRole('tehsils', 'create'),
      schema: {
        tags,
        summary: 'Create a tehsil',
        description: whoMay('tehsils', 'create'),
        body: tehsilSchema,
        response: saved(idOnly),
      },
    },
    async (request) => {
      const row = await saveTehsil(request, request.body);
      return { result: { _id: row.id }, message: LOCATION_MSG.tehsilCreated };
    },
  );
  app.post(
    '/tehsil/update/:id',
    {
      preValidation: requireRole('tehsils', 'edit'),
      schema: {
        tags,
        summary: 'Change a tehsil (moving it moves its users)',
        description: whoMay('tehsils', 'edit'),
        params: idParam,
        body: tehsilSchema,
        response: saved(idOnly),
      },
    },
    async (request) => {
      const row = await saveTehsil(request, request.body, request.params.id);
      return { result: { _id: row.id }, message: LOCATION_MSG.tehsilUpdated };
    },
  );
}
