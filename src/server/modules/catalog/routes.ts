import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CATALOG_MSG,
  type ProductInput,
  productSchema,
  providerSchema,
} from '../../../shared/schemas/catalog';
import { products, providers } from '../../db/schema';
import { badRequest, conflict, guardUnique, notFound, parseInput } from '../../http/errors';
import { pagingQuery, sortQuery } from '../../http/paging';
import { idParam, optionalUuid } from '../../http/params';
import { requireRole } from '../../http/session';
import {
  listProducts,
  listProviders,
  productColumns,
  productNameTaken,
  providerNameTaken,
  toWireProduct,
  toWireProvider,
} from './queries';

const listQuery = pagingQuery
  .and(sortQuery(['name', 'createdAt']))
  .and(z.object({ _id: optionalUuid('Invalid id') }));

export default async function catalogRoutes(app: FastifyInstance) {
  const { db } = app;

  // Providers --------------------------------------------------------------
  app.get('/providers/fetch', { preHandler: requireRole('providers', 'read') }, async (request) => {
    const { items, total } = await listProviders(db, parseInput(listQuery, request.query));
    return { result: { providers: items, totalCounts: total } };
  });

  const saveProvider = async (input: z.infer<typeof providerSchema>, id?: string) => {
    const duplicate = CATALOG_MSG.duplicateProvider(input.name);
    if (await providerNameTaken(db, input.name, id)) throw conflict(duplicate, 'name');
    return guardUnique(duplicate, async () => {
      if (!id) return (await db.insert(providers).values(input).returning())[0];
      const [row] = await db.update(providers).set(input).where(eq(providers.id, id)).returning();
      if (!row) throw notFound(CATALOG_MSG.providerNotFound);
      return row;
    });
  };
  app.post('/providers/create', { preHandler: requireRole('providers', 'create') }, async (request) => {
    const row = await saveProvider(parseInput(providerSchema, request.body));
    return { result: toWireProvider(row), message: CATALOG_MSG.providerCreated };
  });
  app.post('/providers/update/:id', { preHandler: requireRole('providers', 'edit') }, async (request) => {
    const { id } = parseInput(idParam, request.params);
    const row = await saveProvider(parseInput(providerSchema, request.body), id);
    return { result: toWireProvider(row), message: CATALOG_MSG.providerUpdated };
  });

  // Products ---------------------------------------------------------------
  app.get('/products/fetch', { preHandler: requireRole('products', 'read') }, async (request) => {
    const q = parseInput(
      listQuery.and(
        z.object({
          productId: optionalUuid('Invalid product id'),
          providerId: optionalUuid(CATALOG_MSG.invalidProvider),
        }),
      ),
      request.query,
    );
    const { items, total } = await listProducts(db, q);
    return { result: { products: items, totalCounts: total } };
  });

  const saveProduct = async (input: ProductInput, id?: string) => {
    const [provider] = await db.select().from(providers).where(eq(providers.id, input.providerId));
    if (!provider) throw badRequest(CATALOG_MSG.providerMissing, 'providerId');
    const duplicate = CATALOG_MSG.duplicateProduct(input.name);
    if (await productNameTaken(db, input.providerId, input.name, id)) throw conflict(duplicate, 'name');
    const row = await guardUnique(duplicate, async () => {
      if (!id) return (await db.insert(products).values(productColumns(input)).returning())[0];
      const [updated] = await db
        .update(products)
        .set(productColumns(input))
        .where(eq(products.id, id))
        .returning();
      if (!updated) throw notFound(CATALOG_MSG.productNotFound);
      return updated;
    });
    return toWireProduct(row, provider.name);
  };
  app.post('/products/create', { preHandler: requireRole('products', 'create') }, async (request) => {
    const product = await saveProduct(parseInput(productSchema, request.body));
    return { result: product, message: CATALOG_MSG.productCreated };
  });
  app.post('/products/update/:id', { preHandler: requireRole('products', 'edit') }, async (request) => {
    const { id } = parseInput(idParam, request.params);
    const product = await saveProduct(parseInput(productSchema, request.body), id);
    return { result: product, message: CATALOG_MSG.productUpdated };
  });
}
