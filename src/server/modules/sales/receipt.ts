import { eq } from 'drizzle-orm';
import { maskMobile } from '../../../shared/identity';
import { SALES_MSG } from '../../../shared/schemas/sales';
import type { Queryable } from '../../db/open';
import { users } from '../../db/schema';
import { notFound } from '../../http/errors';
import type { SessionUser } from '../account/index';
import type { SaleReceipt } from '../documents/index';
import { listSales } from './queries';

/**
 * One sale's receipt, for whoever may read the sale: bounded by the caller's network exactly as
 * `bought_products/fetch?_id=` (staff any sale; a retailer its own; a distributor or master distributor the sales in
 * its network). Any other sale is not found.
 */
export async function saleReceipt(db: Queryable, viewer: SessionUser, id: string): Promise<SaleReceipt> {
  const { sales } = await listSales(db, viewer, { id }, { limit: 1, offset: 0 });
  const [sale] = sales;
  if (!sale) throw notFound(SALES_MSG.saleNotFound);
  const [customer] = await db
    .select({ mobile: users.mobile })
    .from(users)
    .where(eq(users.id, sale.customerId._id));
  const statusAt = sale.reversedAt ?? sale.failedAt ?? sale.confirmedAt;
  return {
    id: sale._id,
    reference: sale.utmCode,
    merchantCode: sale.merchantCode,
    product: sale.productId.name,
    provider: sale.productId.providerId.name,
    accountType: sale.accountType ?? '',
    customer: sale.customerId.name,
    mobile: customer?.mobile ? maskMobile(customer.mobile) : null,
    retailer: sale.retailerId?.name ?? null,
    amount: sale.amount,
    status: sale.status,
    recordedAt: new Date(sale.createdAt),
    statusAt: statusAt ? new Date(statusAt) : null,
  };
}
