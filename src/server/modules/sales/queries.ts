import { and, eq, ilike, or, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { fromHundredths } from '../../../shared/decimal';
import { type SaleStatus, UserType } from '../../../shared/enums';
import { COMMISSION_TIERS, type CommissionTier, paiseToRupees } from '../../../shared/money';
import type { NamedRef, WireSale, WireShare } from '../../../shared/wire';
import { keyFields, listPage } from '../../db/list';
import type { Queryable } from '../../db/open';
import { boughtProducts, postings, products, providers, users } from '../../db/schema';
import { likePattern } from '../../db/search';
import type { SessionUser } from '../account/index';
import { userNameOf } from '../account/index';
import { listTransactionsOf } from '../ledger/index';
import { networkScope, scopedByPath } from '../network/index';

export type SaleRow = typeof boughtProducts.$inferSelect;

/** Each tier's frozen columns on a sale, in COMMISSION_TIERS order. */
export const SALE_TIER_COLUMNS: Record<
  CommissionTier,
  { percent: keyof SaleRow; share: keyof SaleRow; user: keyof SaleRow }
> = {
  ADMIN: { percent: 'adminCommission', share: 'adminShare', user: 'adminUserId' },
  MASTER_DISTRIBUTOR: {
    percent: 'masterDistributorCommission',
    share: 'masterDistributorShare',
    user: 'masterDistributorUserId',
  },
  DISTRIBUTOR: { percent: 'distributorCommission', share: 'distributorShare', user: 'distributorUserId' },
  RETAILER: { percent: 'retailerCommission', share: 'retailerShare', user: 'retailerUserId' },
  CUSTOMER: { percent: 'customerCommission', share: 'customerShare', user: 'customerUserId' },
};

/** The sale's frozen split: tier, percent, paise and receiver, in tier order. */
export function sharesOf(sale: SaleRow) {
  return COMMISSION_TIERS.map((tier) => {
    const c = SALE_TIER_COLUMNS[tier];
    return {
      tier,
      percent: sale[c.percent] as number,
      paise: sale[c.share] as number,
      userId: sale[c.user] as string,
    };
  });
}

const customer = alias(users, 'sale_customer');

export interface SaleFilter {
  id?: string;
  status?: SaleStatus;
  customerId?: string;
  productId?: string;
  retailerId?: string;
  searchText?: string;
}

const ref = (id: string | null, name: string | null): NamedRef | null =>
  id ? { _id: id, name: name ?? '' } : null;

/** A sales list's page without its rows: the viewer's network, the filter, the page. */
function saleListOf(
  db: Queryable,
  viewer: SessionUser,
  filter: SaleFilter,
  page: { limit: number; offset: number },
) {
  const pattern = filter.searchText ? likePattern(filter.searchText) : undefined;
  const byViewerType = { [UserType.RETAILER]: boughtProducts.retailerId };
  const where = and(
    networkScope(viewer, { path: boughtProducts.path, byViewerType }),
    filter.id ? eq(boughtProducts.id, filter.id) : undefined,
    filter.status ? eq(boughtProducts.status, filter.status) : undefined,
    filter.customerId ? eq(boughtProducts.customerId, filter.customerId) : undefined,
    filter.productId ? eq(boughtProducts.productId, filter.productId) : undefined,
    filter.retailerId ? eq(boughtProducts.retailerId, filter.retailerId) : undefined,
    pattern ? or(ilike(boughtProducts.utmCode, pattern), ilike(customer.name, pattern)) : undefined,
  );
  // Equalities on the sales' indexes (a retailer's own, a status, a customer...), unless a search or a network's
  // path prefix bounds them.
  const equalities = !filter.searchText && !scopedByPath(viewer, byViewerType);
  return {
    keys: (sortKey: SQL.Aliased) =>
      // The customer is joined only to search its name.
      filter.searchText
        ? db
            .select(keyFields(boughtProducts.id, sortKey))
            .from(boughtProducts)
            .innerJoin(customer, eq(customer.id, boughtProducts.customerId))
            .$dynamic()
        : db.select(keyFields(boughtProducts.id, sortKey)).from(boughtProducts).$dynamic(),
    where,
    equalities,
    prepared: equalities ? 'sales' : undefined,
    page,
    sort: { columns: { createdAt: boughtProducts.createdAt }, default: 'createdAt', id: boughtProducts.id },
    total: 'capped' as const,
  };
}

/**
 * Sales the viewer may see (staff: all; a tier user: those recorded in its network, by the customer's path at
 * the time of the sale), newest first, with their names looked up.
 */
export async function listSales(
  db: Queryable,
  viewer: SessionUser,
  filter: SaleFilter,
  page: { limit: number; offset: number },
): Promise<{ sales: WireSale[]; total: number; capped: boolean }> {
  const { rows, total, capped } = await listPage(db, {
    ...saleListOf(db, viewer, filter, page),
    // Names are scalar lookups (see listWireUsers): one round trip for the page, split receivers included.
    rows: (found, order, total) =>
      db
        .select({
          total,
          sale: boughtProducts,
          customerName: userNameOf(boughtProducts.customerId),
          retailerName: userNameOf(boughtProducts.retailerId),
          sellerName: userNameOf(boughtProducts.soldBy),
          receivers: {
            ADMIN: userNameOf(boughtProducts.adminUserId),
            MASTER_DISTRIBUTOR: userNameOf(boughtProducts.masterDistributorUserId),
            DISTRIBUTOR: userNameOf(boughtProducts.distributorUserId),
            RETAILER: userNameOf(boughtProducts.retailerUserId),
            CUSTOMER: userNameOf(boughtProducts.customerUserId),
          },
          productName: products.name,
          providerId: providers.id,
          providerName: providers.name,
        })
        .from(found.keys)
        .innerJoin(boughtProducts, eq(boughtProducts.id, found.id))
        .innerJoin(products, eq(products.id, boughtProducts.productId))
        .innerJoin(providers, eq(providers.id, products.providerId))
        .orderBy(...order),
  });
  return {
    sales: rows.map((r) => ({
      _id: r.sale.id,
      status: r.sale.status as WireSale['status'],
      utmCode: r.sale.utmCode,
      merchantCode: r.sale.merchantCode,
      accountType: r.sale.accountType,
      amount: paiseToRupees(r.sale.amountPaise),
      split: sharesOf(r.sale).map(
        (s): WireShare => ({
          tier: s.tier,
          percent: fromHundredths(s.percent),
          amount: paiseToRupees(s.paise),
          user: { _id: s.userId, name: r.receivers[s.tier] ?? '' },
        }),
      ),
      customerId: { _id: r.sale.customerId, name: r.customerName ?? '' },
      retailerId: ref(r.sale.retailerId, r.retailerName),
      productId: {
        _id: r.sale.productId,
        name: r.productName,
        providerId: { _id: r.providerId, name: r.providerName },
      },
      soldBy: { _id: r.sale.soldBy, name: r.sellerName ?? '' },
      createdAt: r.sale.createdAt.toISOString(),
      confirmedAt: r.sale.confirmedAt?.toISOString() ?? null,
      failedAt: r.sale.failedAt?.toISOString() ?? null,
      reversedAt: r.sale.reversedAt?.toISOString() ?? null,
    })),
    total,
    capped,
  };
}

/** One visible sale with its postings (oldest first), or undefined. */
export async function saleWithPostings(db: Queryable, viewer: SessionUser, id: string) {
  const { sales } = await listSales(db, viewer, { id }, { limit: 1, offset: 0 });
  const [sale] = sales;
  if (!sale) return undefined;
  const { transactions } = await listTransactionsOf(
    db,
    eq(postings.boughtProductId, id),
    { limit: 1000, offset: 0 },
    { order: 'ASC' },
  );
  return { ...sale, postings: transactions };
}
