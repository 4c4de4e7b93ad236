import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CATALOG_MSG,
  type ProductInput,
  productSchema,
  providerSchema,
} from '../../../shared/schemas/catalog';
import { rowView, saveNamed } from '../../db/named';
import { products, providers } from '../../db/schema';
import { badRequest, parseInput } from '../../http/errors';
import { pagingQuery, sortQuery } from '../../http/paging';
import { idParam, optionalUuid } from '../../http/params';
import { requireRole } from '../../http/session';
import { runCommand } from '../audit/record';
import { listProducts, listProviders, productColumns, toWireProduct, toWireProvider } from './queries';

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

  const saveProvider = (request: FastifyRequest, input: z.infer<typeof providerSchema>, id?: string) =>
    runCommand(
      request,
      { action: id ? 'provider.update' : 'provider.create', entity: 'provider' },
      async (tx) => {
        const { before, row } = await saveNamed(tx, providers, {
          id,
          values: input,
          messages: {
            duplicate: CATALOG_MSG.duplicateProvider(input.name),
            notFound: CATALOG_MSG.providerNotFound,
          },
        });
        return { entityId: row.id, before: id ? rowView(before) : null, after: rowView(row), result: row };
      },
    );
  app.post('/providers/create', { preHandler: requireRole('providers', 'create') }, async (request) => {
    const row = await saveProvider(request, parseInput(providerSchema, request.body));
    return { result: toWireProvider(row), message: CATALOG_MSG.providerCreated };
  });
  app.post('/providers/update/:id', { preHandler: requireRole('providers', 'edit') }, async (request) => {
    const { id } = parseInput(idParam, request.params);
    const row = await saveProvider(request, parseInput(providerSchema, request.body), id);
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

  const saveProduct = (request: FastifyRequest, input: ProductInput, id?: string) =>
    runCommand(
      request,
      { action: id ? 'product.update' : 'product.create', entity: 'product' },
      async (tx) => {
        // Share-locked: the provider stays until the product is saved under it.
        const [provider] = await tx
          .select()
          .from(providers)
          .where(eq(providers.id, input.providerId))
          .for('share');
        if (!provider) throw badRequest(CATALOG_MSG.providerMissing, 'providerId');
        const { before, row } = await saveNamed(tx, products, {
          id,
          values: productColumns(input),
          parent: { column: products.providerId, id: input.providerId },
          messages: {
            duplicate: CATALOG_MSG.duplicateProduct(input.name),
            notFound: CATALOG_MSG.productNotFound,
          },
        });
        return {
          entityId: row.id,
          before: id ? rowView(before) : null,
          after: rowView(row),
          result: toWireProduct(row, provider.name),
        };
      },
    );
  app.post('/products/create', { preHandler: requireRole('products', 'create') }, async (request) => {
    const product = await saveProduct(request, parseInput(productSchema, request.body));
    return { result: product, message: CATALOG_MSG.productCreated };
  });
  app.post('/products/update/:id', { preHandler: requireRole('products', 'edit') }, async (request) => {
    const { id } = parseInput(idParam, request.params);
    const product = await saveProduct(request, parseInput(productSchema, request.body), id);
    return { result: product, message: CATALOG_MSG.productUpdated };
  });
}
