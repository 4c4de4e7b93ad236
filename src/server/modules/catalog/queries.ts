import { and, eq, ilike } from 'drizzle-orm';
import { fromHundredths } from '../../../shared/decimal';
import type { ProductInput } from '../../../shared/schemas/catalog';
import type { WireProduct, WireProvider } from '../../../shared/wire';
import { keyFields, listPage } from '../../db/list';
import type { Queryable } from '../../db/open';
import { products, providers } from '../../db/schema';
import { likePattern } from '../../http/paging';
import { byId, byNameOrDate, type ListOptions } from '../locations/index';

type ProductRow = typeof products.$inferSelect;

export const toWireProvider = (r: typeof providers.$inferSelect): WireProvider => ({
  _id: r.id,
  name: r.name,
  createdAt: r.createdAt.toISOString(),
});

export const toWireProduct = (r: ProductRow, providerName: string): WireProduct => ({
  _id: r.id,
  name: r.name,
  providerId: { _id: r.providerId, name: providerName },
  amount: fromHundredths(r.amountPaise),
  adminCommission: fromHundredths(r.adminCommission),
  masterDistributorCommission: fromHundredths(r.masterDistributorCommission),
  distributorCommission: fromHundredths(r.distributorCommission),
  retailerCommission: fromHundredths(r.retailerCommission),
  customerCommission: fromHundredths(r.customerCommission),
  url: r.url,
  urlParams: { reqType: r.reqType as 'GET' | 'POST', data: r.urlData },
  createdAt: r.createdAt.toISOString(),
});

/** Validated input -> columns (amount and commissions already in hundredths). */
export const productColumns = (p: ProductInput) => ({
  providerId: p.providerId,
  name: p.name,
  url: p.url,
  amountPaise: p.amount,
  adminCommission: p.adminCommission,
  masterDistributorCommission: p.masterDistributorCommission,
  distributorCommission: p.distributorCommission,
  retailerCommission: p.retailerCommission,
  customerCommission: p.customerCommission,
  reqType: p.urlParams.reqType,
  urlData: p.urlParams.data,
});

export async function listProviders(db: Queryable, opts: ListOptions) {
  const where = and(
    opts.searchText ? ilike(providers.name, likePattern(opts.searchText)) : undefined,
    byId(providers.id, opts._id),
  );
  const { rows, total } = await listPage(db, {
    keys: (sortKey) => db.select(keyFields(providers.id, sortKey)).from(providers).$dynamic(),
    rows: (page, order, total) =>
      db
        .select({
          total,
          id: providers.id,
          name: providers.name,
          createdAt: providers.createdAt,
        })
        .from(page.keys)
        .innerJoin(providers, eq(providers.id, page.id))
        .orderBy(...order),
    where,
    page: opts,
    sort: byNameOrDate(providers),
    total: 'exact',
  });
  return { items: rows.map(toWireProvider), total };
}

export async function listProducts(
  db: Queryable,
  opts: ListOptions & { productId?: string; providerId?: string },
) {
  const where = and(
    opts.searchText ? ilike(products.name, likePattern(opts.searchText)) : undefined,
    opts.productId ? eq(products.id, opts.productId) : undefined,
    byId(products.id, opts._id),
    opts.providerId ? eq(products.providerId, opts.providerId) : undefined,
  );
  const { rows, total } = await listPage(db, {
    keys: (sortKey) => db.select(keyFields(products.id, sortKey)).from(products).$dynamic(),
    rows: (page, order, total) =>
      db
        .select({
          total,
          product: products,
          providerName: providers.name,
        })
        .from(page.keys)
        .innerJoin(products, eq(products.id, page.id))
        .innerJoin(providers, eq(providers.id, products.providerId))
        .orderBy(...order),
    where,
    page: opts,
    sort: byNameOrDate(products),
    total: 'exact',
  });
  return { items: rows.map((r) => toWireProduct(r.product, r.providerName)), total };
}
