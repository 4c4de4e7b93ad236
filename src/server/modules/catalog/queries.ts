import { and, count, eq, ilike, ne, sql } from 'drizzle-orm';
import { fromHundredths } from '../../../shared/decimal';
import type { ProductInput } from '../../../shared/schemas/catalog';
import type { WireProduct, WireProvider } from '../../../shared/wire';
import type { Queryable } from '../../db/open';
import { products, providers } from '../../db/schema';
import { likePattern, offsetOf } from '../../http/paging';
import { byId, type ListOptions, orderFor } from '../locations/queries';

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
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(providers)
      .where(where)
      .orderBy(...orderFor(opts, providers))
      .limit(opts.limit)
      .offset(offsetOf(opts)),
    db.select({ n: count() }).from(providers).where(where),
  ]);
  return { items: rows.map(toWireProvider), total: total.n };
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
  const [rows, [total]] = await Promise.all([
    db
      .select({ product: products, providerName: providers.name })
      .from(products)
      .innerJoin(providers, eq(providers.id, products.providerId))
      .where(where)
      .orderBy(...orderFor(opts, products))
      .limit(opts.limit)
      .offset(offsetOf(opts)),
    db.select({ n: count() }).from(products).where(where),
  ]);
  return { items: rows.map((r) => toWireProduct(r.product, r.providerName)), total: total.n };
}

export async function providerNameTaken(db: Queryable, name: string, exceptId?: string) {
  const [row] = await db
    .select({ id: providers.id })
    .from(providers)
    .where(
      and(sql`lower(${providers.name}) = lower(${name})`, exceptId ? ne(providers.id, exceptId) : undefined),
    )
    .limit(1);
  return !!row;
}

export async function productNameTaken(db: Queryable, providerId: string, name: string, exceptId?: string) {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(
      and(
        eq(products.providerId, providerId),
        sql`lower(${products.name}) = lower(${name})`,
        exceptId ? ne(products.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return !!row;
}
