import { eq } from 'drizzle-orm';
import { fromHundredths } from '../../../shared/decimal';
import type { ProductInput } from '../../../shared/schemas/catalog';
import type { WireProduct, WireProvider } from '../../../shared/wire';
import { listNamed, type NamedListRequest } from '../../db/named';
import type { Queryable } from '../../db/open';
import { products, providers } from '../../db/schema';

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

export async function listProviders(db: Queryable, request: NamedListRequest) {
  const { rows, total } = await listNamed(db, providers, request, {
    rows: (page, order, total) =>
      db
        .select({ total, provider: providers })
        .from(page.keys)
        .innerJoin(providers, eq(providers.id, page.id))
        .orderBy(...order),
  });
  return { items: rows.map((r) => toWireProvider(r.provider)), total };
}

export async function listProducts(
  db: Queryable,
  request: NamedListRequest & { productId?: string; providerId?: string },
) {
  const { rows, total } = await listNamed(db, products, request, {
    filters: [
      request.productId ? eq(products.id, request.productId) : undefined,
      request.providerId ? eq(products.providerId, request.providerId) : undefined,
    ],
    rows: (page, order, total) =>
      db
        .select({ total, product: products, providerName: providers.name })
        .from(page.keys)
        .innerJoin(products, eq(products.id, page.id))
        .innerJoin(providers, eq(providers.id, products.providerId))
        .orderBy(...order),
  });
  return { items: rows.map((r) => toWireProduct(r.product, r.providerName)), total };
}
