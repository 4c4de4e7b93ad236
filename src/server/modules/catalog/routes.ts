import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CATALOG_MSG,
  type ProductInput,
  productSchemaFor,
  providerSchema,
} from '../../../shared/schemas/catalog';
import { envelope, listEnvelope, wireProductSchema, wireProviderSchema } from '../../../shared/wire';
import { rowView, saveNamed } from '../../db/named';
import { products, providers } from '../../db/schema';
import { badRequest } from '../../http/errors';
import { pagingQuery, sortQuery } from '../../http/paging';
import { idParam, optionalUuid } from '../../http/params';
import { listReads } from '../../http/reader';
import { guarded } from '../../http/session';
import { runCommand } from '../audit/index';
import { listProducts, listProviders, productColumns, toWireProduct, toWireProvider } from './queries';

const listQuery = pagingQuery
  .and(sortQuery(['name', 'createdAt']))
  .and(z.object({ _id: optionalUuid('Invalid id') }));

const tags = ['catalog'];
const productQuery = listQuery.and(
  z.object({
    productId: optionalUuid('Invalid product id'),
    providerId: optionalUuid(CATALOG_MSG.invalidProvider),
  }),
);

export default async function catalogRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Amounts bounded by this server's configuration (MAX_AMOUNT_RUPEES).
  const productSchema = productSchemaFor(app.config.maxAmountPaise);

  // Providers --------------------------------------------------------------
  app.get(
    '/providers/fetch',
    {
      ...guarded('providers', 'read', {
        tags,
        summary: 'Providers',
        querystring: listQuery,
        response: { 200: listEnvelope('providers', wireProviderSchema) },
      }),
      config: listReads(),
    },
    async (request) => {
      const { items, total } = await listProviders(request.reader, request.query);
      return { result: { providers: items, totalCounts: total } };
    },
  );

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
  app.post(
    '/providers/create',
    guarded('providers', 'create', {
      tags,
      summary: 'Create a provider',
      body: providerSchema,
      response: { 200: envelope(wireProviderSchema) },
    }),
    async (request) => {
      const row = await saveProvider(request, request.body);
      return { result: toWireProvider(row), message: CATALOG_MSG.providerCreated };
    },
  );
  app.post(
    '/providers/update/:id',
    guarded('providers', 'edit', {
      tags,
      summary: 'Rename a provider',
      params: idParam,
      body: providerSchema,
      response: { 200: envelope(wireProviderSchema) },
    }),
    async (request) => {
      const row = await saveProvider(request, request.body, request.params.id);
      return { result: toWireProvider(row), message: CATALOG_MSG.providerUpdated };
    },
  );

  // Products ---------------------------------------------------------------
  app.get(
    '/products/fetch',
    {
      ...guarded('products', 'read', {
        tags,
        summary: 'Products',
        querystring: productQuery,
        response: { 200: listEnvelope('products', wireProductSchema) },
      }),
      config: listReads('productId', '_id'),
    },
    async (request) => {
      const { items, total } = await listProducts(request.reader, request.query);
      return { result: { products: items, totalCounts: total } };
    },
  );

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
  app.post(
    '/products/create',
    guarded('products', 'create', {
      tags,
      summary: 'Create a product',
      body: productSchema,
      response: { 200: envelope(wireProductSchema) },
    }),
    async (request) => {
      const product = await saveProduct(request, request.body);
      return { result: product, message: CATALOG_MSG.productCreated };
    },
  );
  app.post(
    '/products/update/:id',
    guarded('products', 'edit', {
      tags,
      summary: 'Change a product (sales already recorded keep their frozen amount and split)',
      params: idParam,
      body: productSchema,
      response: { 200: envelope(wireProductSchema) },
    }),
    async (request) => {
      const product = await saveProduct(request, request.body, request.params.id);
      return { result: product, message: CATALOG_MSG.productUpdated };
    },
  );
}
