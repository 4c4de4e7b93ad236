import { and, asc, eq, inArray } from 'drizzle-orm';
import { SaleStatus, UserType } from '../../../shared/enums';
import { splitAmount } from '../../../shared/money';
import type { BoughtProductInput, ProviderCallback } from '../../../shared/schemas/sales';
import { SALES_MSG } from '../../../shared/schemas/sales';
import type { WireSale } from '../../../shared/wire';
import type { Db, Queryable, Tx } from '../../db/open';
import { accountOpenings, boughtProducts, postings, products, providerEvents, users } from '../../db/schema';
import { columnsOf, runStatement } from '../../db/statements';
import { inTransaction } from '../../db/transaction';
import { badRequest, conflict, type HttpError, isUniqueViolation, notFound } from '../../http/errors';
import type { SessionUser } from '../account/sessions';
import { findVisibleUser } from '../account/users';
import type { AuditRecorder } from '../audit/record';
import { InsufficientBalance, lockWallets, type PostingDraft, post, writePostings } from '../ledger/ledger';
import { listSales, type SaleRow, sharesOf } from './queries';

/** The administrator credited with the admin share (and with any missing tier's share): the first admin. */
export async function ledgerAdminId(q: Queryable): Promise<string> {
  const [admin] = await q
    .select({ id: users.id })
    .from(users)
    .where(eq(users.type, UserType.ADMIN))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(1);
  if (!admin) throw new Error('No administrator exists to receive the admin share');
  return admin.id;
}

/** A customer the caller may sell to: inside its network (a retailer: its own customers), or 404. */
export async function sellableCustomer(q: Queryable, caller: SessionUser, customerId: string) {
  const customer = await findVisibleUser(q, caller, customerId);
  if (!customer || customer.type !== UserType.CUSTOMER) throw notFound(SALES_MSG.customerNotFound);
  return customer;
}

export async function productById(q: Queryable, productId: string) {
  const [product] = await q.select().from(products).where(eq(products.id, productId)).limit(1);
  if (!product) throw notFound(SALES_MSG.productNotFound);
  return product;
}

/**
 * `bought_products/create`: records a PENDING sale for a utmCode the partner issued to this same caller
 * through `payusprint/*`, freezing the product's amount, its five percentages, each share and who receives it.
 * A retailer sells only to its own customers and is always the sale's retailer; staff sell to any customer,
 * with the customer's retailer (none when the customer has none). The retailerId of the body is not read.
 */
export async function recordSale(
  db: Db,
  caller: SessionUser,
  input: BoughtProductInput,
  audit?: AuditRecorder,
): Promise<{ id: string; sale: WireSale }> {
  const id = await inTransaction(db, async (tx) => {
    const customer = await sellableCustomer(tx, caller, input.customerId);
    const product = await productById(tx, input.productId);
    const [opening] = await tx
      .select()
      .from(accountOpenings)
      .where(eq(accountOpenings.utmCode, input.utmCode))
      .limit(1);
    if (!opening || opening.requestedBy !== caller.id) throw badRequest(SALES_MSG.unknownOpening, 'utmCode');
    if (opening.merchantCode !== input.merchantCode)
      throw conflict(SALES_MSG.openingMerchantMismatch, 'merchantCode');
    if (opening.customerId && opening.customerId !== customer.id)
      throw conflict(SALES_MSG.openingOtherCustomer, 'customerId');
    if (opening.productId && opening.productId !== product.id)
      throw conflict(SALES_MSG.openingOtherProduct, 'productId');

    const retailerId = caller.type === UserType.RETAILER ? caller.id : customer.retailerId;
    const adminId = await ledgerAdminId(tx);
    const percents = [
      product.adminCommission,
      product.masterDistributorCommission,
      product.distributorCommission,
      product.retailerCommission,
      product.customerCommission,
    ];
    const [admin, md, d, r, c] = splitAmount(product.amountPaise, percents);
    const [row] = await tx
      .insert(boughtProducts)
      .values({
        customerId: customer.id,
        retailerId,
        productId: product.id,
        soldBy: caller.id,
        utmCode: input.utmCode,
        merchantCode: input.merchantCode,
        accountType: opening.accountType,
        status: SaleStatus.PENDING,
        path: customer.path,
        amountPaise: product.amountPaise,
        adminCommission: percents[0],
        masterDistributorCommission: percents[1],
        distributorCommission: percents[2],
        retailerCommission: percents[3],
        customerCommission: percents[4],
        adminShare: admin,
        masterDistributorShare: md,
        distributorShare: d,
        retailerShare: r,
        customerShare: c,
        adminUserId: adminId,
        masterDistributorUserId: customer.masterDistributorId ?? adminId,
        distributorUserId: customer.distributorId ?? adminId,
        retailerUserId: retailerId ?? adminId,
        customerUserId: customer.id,
      })
      .returning()
      .catch((error) => {
        // Two sales racing for one utmCode: the unique index decides.
        if (isUniqueViolation(error)) throw conflict(SALES_MSG.utmCodeUsed, 'utmCode');
        throw error;
      });
    await audit?.(tx, { entityId: row.id, after: saleView(row) });
    return row.id;
  });
  const { sales } = await listSales(db, caller, { id }, { limit: 1, offset: 0 });
  return { id, sale: sales[0] };
}

/** What the audit trail records of a sale when it is recorded. */
export const saleView = (sale: SaleRow) => ({
  customerId: sale.customerId,
  retailerId: sale.retailerId,
  productId: sale.productId,
  utmCode: sale.utmCode,
  merchantCode: sale.merchantCode,
  accountType: sale.accountType,
  status: sale.status,
  amountPaise: sale.amountPaise,
});

/** A sale's commission credits: one CLEARING credit per tier with a share above zero. */
export const commissionDrafts = (sale: SaleRow): PostingDraft[] =>
  sharesOf(sale)
    .filter((s) => s.paise > 0)
    .map((s) => ({
      userId: s.userId,
      kind: 'COMMISSION',
      transactionType: 'CREDIT',
      balanceType: 'CLEARING',
      status: 'CLEARING',
      amountPaise: s.paise,
      boughtProductId: sale.id,
      tier: s.tier,
    }));

export interface CallbackAnswer {
  eventId: string;
  boughtProductId: string;
  status: SaleStatus;
}

// The statements of the callback's hot path, hand-written, its text built once (db/statements.ts).
const LOCK_SALE_BY_UTM = `select ${columnsOf(boughtProducts)} from bought_products where utm_code = $1 for update`;
const RECORD_EVENT = `insert into provider_events (event_id, event, utm_code, bought_product_id, answer)
    values ($1, $2, $3, $4, $5::jsonb) on conflict do nothing returning event_id`;
const CONFIRM_SALE = `update bought_products set status = '${SaleStatus.CONFIRMED}', confirmed_at = $2 where id = $1`;

/**
 * Confirms a PENDING sale: its shares land in five clearing balances. The sale row is updated before the wallets
 * are locked, so the wallet locks (the admin wallet's above all: every sale credits it) are the last taken and
 * held only for one UPDATE, one INSERT and the commit.
 */
async function confirm(tx: Tx, sale: SaleRow, ledgerKey: Buffer, now: Date) {
  await runStatement(tx, CONFIRM_SALE, [sale.id, now]);
  await post(tx, commissionDrafts(sale), { ledgerKey, now });
}

/**
 * Reverses a CONFIRMED sale: each commission is taken back out of clearing, or out of the available balance
 * when it was settled already (decided under the wallet locks, so a settlement cannot slip in between).
 */
async function reverse(tx: Tx, sale: SaleRow, ledgerKey: Buffer, now: Date) {
  await tx
    .update(boughtProducts)
    .set({ status: SaleStatus.REVERSED, reversedAt: now })
    .where(eq(boughtProducts.id, sale.id));
  const commissions = await tx
    .select()
    .from(postings)
    .where(and(eq(postings.boughtProductId, sale.id), eq(postings.kind, 'COMMISSION')))
    .orderBy(asc(postings.tier));
  const locked = await lockWallets(
    tx,
    commissions.map((c) => c.userId),
  );
  const ids = commissions.map((c) => c.id);
  const settled = new Set(
    ids.length === 0
      ? []
      : (
          await tx
            .select({ ref: postings.refPostingId })
            .from(postings)
            .where(
              and(
                inArray(postings.refPostingId, ids),
                eq(postings.kind, 'SETTLEMENT'),
                eq(postings.balanceType, 'AVAILABLE'),
              ),
            )
        ).map((r) => r.ref),
  );
  const drafts = commissions.map(
    (c): PostingDraft => ({
      userId: c.userId,
      kind: 'REVERSAL',
      transactionType: 'DEBIT',
      balanceType: settled.has(c.id) ? 'AVAILABLE' : 'CLEARING',
      status: 'REVERSED',
      amountPaise: c.amountPaise,
      boughtProductId: sale.id,
      tier: c.tier as PostingDraft['tier'],
      refPostingId: c.id,
    }),
  );
  try {
    await writePostings(tx, locked, drafts, { ledgerKey, now });
  } catch (error) {
    if (!(error instanceof InsufficientBalance)) throw error;
    const [who] = await tx.select({ name: users.name }).from(users).where(eq(users.id, error.userId));
    throw conflict(SALES_MSG.reversalShortfall(who?.name ?? error.userId));
  }
}

/** What an event does to a sale in a given state: a new status and its effect, or a refusal. */
type Transition = { next: SaleStatus; effect?: (tx: Tx) => Promise<unknown> } | { refusal: HttpError };

function transition(sale: SaleRow, event: ProviderCallback, ledgerKey: Buffer, now: Date): Transition {
  const status = sale.status as SaleStatus;
  if (sale.merchantCode !== event.merchantCode)
    return { refusal: conflict(SALES_MSG.callbackMerchantMismatch) };
  switch (event.event) {
    case 'account.opened':
      if (status === SaleStatus.PENDING)
        return { next: SaleStatus.CONFIRMED, effect: (tx) => confirm(tx, sale, ledgerKey, now) };
      if (status === SaleStatus.CONFIRMED) return { next: status };
      return { refusal: conflict(SALES_MSG.openedAfterEnd(status)) };
    case 'account.failed':
      if (status === SaleStatus.PENDING)
        return {
          next: SaleStatus.FAILED,
          effect: (tx) =>
            tx
              .update(boughtProducts)
              .set({ status: SaleStatus.FAILED, failedAt: now })
              .where(eq(boughtProducts.id, sale.id)),
        };
      if (status === SaleStatus.FAILED) return { next: status };
      return { refusal: conflict(SALES_MSG.failedAfterOpened) };
    case 'account.reversed':
      if (status === SaleStatus.CONFIRMED)
        return { next: SaleStatus.REVERSED, effect: (tx) => reverse(tx, sale, ledgerKey, now) };
      if (status === SaleStatus.REVERSED) return { next: status };
      return { refusal: conflict(SALES_MSG.reverseNotConfirmed) };
  }
}

/**
 * Applies one partner event, exactly once per eventId. The sale is locked first, so every delivery for it
 * (the same event again, or another) waits its turn and is judged on the state the previous one left. The
 * event is recorded with its answer in the same transaction as its effect: a repeated eventId finds it and
 * gets the first answer back, even when the sale has moved on since. A refused event is not recorded, so a
 * later retry is judged again. The money moves last (see confirm).
 */
export async function applyProviderEvent(
  db: Db,
  event: ProviderCallback,
  ledgerKey: Buffer,
  audit?: AuditRecorder,
): Promise<{ answer: CallbackAnswer; replay: boolean }> {
  return inTransaction(db, async (tx) => {
    const prior = async () => {
      const [row] = await tx.select().from(providerEvents).where(eq(providerEvents.eventId, event.eventId));
      return row ? { answer: row.answer as CallbackAnswer, replay: true } : undefined;
    };
    const [sale] = await runStatement<SaleRow>(tx, LOCK_SALE_BY_UTM, [event.utmCode]);
    if (!sale) {
      const replay = await prior();
      if (replay) return replay;
      throw notFound(SALES_MSG.callbackUnknownUtm);
    }
    const judged = transition(sale, event, ledgerKey, new Date());
    if ('refusal' in judged) {
      const replay = await prior();
      if (replay) return replay;
      throw judged.refusal;
    }
    const answer: CallbackAnswer = { eventId: event.eventId, boughtProductId: sale.id, status: judged.next };
    const recorded = await runStatement(tx, RECORD_EVENT, [
      event.eventId,
      event.event,
      event.utmCode,
      sale.id,
      JSON.stringify(answer),
    ]);
    if (recorded.length === 0) return (await prior())!;
    // Before the effect: the audit insert must not lengthen the hold on the wallet locks the effect takes last.
    await audit?.(tx, {
      entityId: sale.id,
      before: { status: sale.status },
      after: { status: judged.next, event: event.event, eventId: event.eventId },
    });
    await judged.effect?.(tx);
    return { answer, replay: false };
  });
}
