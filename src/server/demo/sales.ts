import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { ProviderEvent } from '../../shared/enums';
import { UserType } from '../../shared/enums';
import type { Db } from '../db/open';
import { accountOpenings, products, users } from '../db/schema';
import { recordPayout, settle } from '../modules/ledger/index';
import { applyProviderEvent, openingBinding, recordSale } from '../modules/sales/index';

/**
 * Demo sales through the same rules as real ones: each is opened (as if the partner had answered
 * `payusprint/*`), recorded by the customer's retailer, and then confirmed, failed or reversed by partner
 * events; two retailers are settled and one is paid out, so every wallet state shows up in the panel.
 */
export async function seedDemoSales(db: Db, ledgerKey: Buffer) {
  const catalogue = await db.select().from(products).orderBy(asc(products.createdAt));
  const customers = await db
    .select()
    .from(users)
    .where(and(eq(users.type, UserType.CUSTOMER), isNotNull(users.retailerId)))
    .orderBy(asc(users.createdAt));
  // The retailer as the sale's caller would be: a demo retailer has no second step.
  const retailerOf = async (id: string) => ({
    ...(await db.select().from(users).where(eq(users.id, id)))[0],
    mfaEnabled: false,
  });

  // What happens to each of the first customers' sale, in order.
  const outcomes: (ProviderEvent[] | null)[] = [
    ['account.opened'],
    ['account.opened'],
    ['account.opened'],
    ['account.opened'],
    ['account.opened'],
    ['account.opened', 'account.reversed'],
    ['account.failed'],
    null,
    null,
  ];
  for (const [i, events] of outcomes.entries()) {
    const customer = customers[i];
    const product = catalogue[i % catalogue.length];
    if (!customer?.retailerId || !product) break;
    const retailer = await retailerOf(customer.retailerId);
    const utmCode = `DEMO${randomBytes(6).toString('hex').toUpperCase()}`;
    const merchantCode = 'DEMO-MERCHANT';
    await db.insert(accountOpenings).values({
      utmCode,
      merchantCode,
      accountType: product.urlData,
      ...openingBinding(product),
      customerId: customer.id,
      requestedBy: retailer.id,
    });
    await recordSale(db, retailer, { customerId: customer.id, productId: product.id, utmCode, merchantCode });
    for (const [n, event] of (events ?? []).entries())
      await applyProviderEvent(
        db,
        { eventId: `demo-${utmCode}-${n}`, event, utmCode, merchantCode },
        ledgerKey,
      );
  }

  const first = customers[0]?.retailerId;
  const second = customers[3]?.retailerId;
  for (const userId of [first, second]) if (userId) await settle(db, ledgerKey, { userId });
  if (first)
    await recordPayout(db, ledgerKey, (await adminId(db)) ?? first, {
      userId: first,
      amount: 5_000,
      reference: 'DEMO-PAYOUT-1',
    });
}

const adminId = async (db: Db) =>
  (await db.select({ id: users.id }).from(users).where(eq(users.type, UserType.ADMIN)).limit(1))[0]?.id;
