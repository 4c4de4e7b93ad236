import { createHash } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { SaleStatus, STAFF_TYPES, UserType } from '../../../shared/enums';
import { paiseToRupees, splitAmount } from '../../../shared/money';
import type { BoughtProductInput, ProviderCallback } from '../../../shared/schemas/sales';
import { SALES_MSG } from '../../../shared/schemas/sales';
import type { WireSale } from '../../../shared/wire';
import { isUniqueViolation } from '../../db/errors';
import type { Db, Queryable, Tx } from '../../db/open';
import {
  accountOpenings,
  boughtProducts,
  idempotencyKeys,
  products,
  providerEvents,
  users,
} from '../../db/schema';
import { columnsOf, runStatement } from '../../db/statements';
import { inTransaction } from '../../db/transaction';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors';
import type { SessionUser } from '../account/index';
import { findVisibleUser } from '../account/index';
import type { AuditRecorder } from '../audit/index';
import { saleChanged } from '../events/index';
import { creditCommissions, reverseCommissions } from '../ledger/index';
import { notify } from '../notifications/index';
import { countNewSale, countStatusChange } from './counters';
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

type ProductRow = typeof products.$inferSelect;
type OpeningRow = typeof accountOpenings.$inferSelect;

/**
 * What an account opening records of its product when the partner's link is obtained (`payusprint/*`): the
 * product, its amount and its five percentages as they are now. The sale recorded for the opening is split so,
 * whatever the product says by then.
 */
export const openingBinding = (product: ProductRow) => ({
  productId: product.id,
  amountPaise: product.amountPaise,
  adminCommission: product.adminCommission,
  masterDistributorCommission: product.masterDistributorCommission,
  distributorCommission: product.distributorCommission,
  retailerCommission: product.retailerCommission,
  customerCommission: product.customerCommission,
});

/** The opening's recorded amount and five percentages (tier order), or undefined for an unbound (older) one. */
function boundSplit(opening: OpeningRow) {
  const percents = [
    opening.adminCommission,
    opening.masterDistributorCommission,
    opening.distributorCommission,
    opening.retailerCommission,
    opening.customerCommission,
  ];
  if (opening.productId === null || opening.amountPaise === null || percents.some((p) => p === null))
    return undefined;
  return { productId: opening.productId, amountPaise: opening.amountPaise, percents: percents as number[] };
}

/**
 * `bought_products/create`: records a PENDING sale for a utmCode the partner issued to this same caller
 * through `payusprint/*`, for the product that opening is bound to, freezing the amount and five percentages the
 * opening recorded, each share and who receives it. A retailer sells only to its own customers and is always the
 * sale's retailer; staff sell to any customer, with the customer's retailer (none when the customer has none).
 * The retailerId of the body is not read. Inside the caller's transaction when it passes one.
 */
export async function recordSale(
  db: Queryable,
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
    const bound = boundSplit(opening);
    if (!bound) throw conflict(SALES_MSG.openingUnbound, 'productId');
    if (bound.productId !== product.id) {
      const opened = await productById(tx, bound.productId);
      throw conflict(SALES_MSG.openingBoundToProduct(opened.name, product.name), 'productId');
    }

    const retailerId = caller.type === UserType.RETAILER ? caller.id : customer.retailerId;
    const adminId = await ledgerAdminId(tx);
    const percents = bound.percents;
    const [admin, md, d, r, c] = splitAmount(bound.amountPaise, percents);
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
        amountPaise: bound.amountPaise,
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
    await countNewSale(tx, row);
    await audit?.(tx, { entityId: row.id, after: saleView(row) });
    await saleChanged(tx, row, SaleStatus.PENDING);
    return row.id;
  });
  const { sales } = await listSales(db, caller, { id }, { limit: 1, offset: 0 });
  return { id, sale: sales[0] };
}

/** `bought_products/create`'s answer. */
export interface SaleAnswer {
  statusCode: number;
  body: { result: WireSale; message: string };
}

/** What a `bought_products/create` request asks for: the fields the server reads, hashed. */
const fingerprintOf = (input: BoughtProductInput) =>
  createHash('sha256')
    .update(
      JSON.stringify([
        'bought_products/create',
        input.customerId,
        input.productId,
        input.utmCode,
        input.merchantCode,
      ]),
    )
    .digest('hex');

/**
 * recordSale under an `Idempotency-Key` (none: as recordSale). The caller's key is claimed first, in the sale's
 * transaction: a concurrent request with the same key waits on the claim, then finds it. The same key with the
 * same request answers the first answer (status and body) and records nothing; with another request it is a 409.
 * A refused request leaves no key behind (its transaction rolls back), so a retry is judged again.
 */
export async function recordSaleOnce(
  db: Db,
  caller: SessionUser,
  input: BoughtProductInput,
  key: string | undefined,
  audit?: AuditRecorder,
): Promise<SaleAnswer & { replay: boolean }> {
  const answerOf = (sale: WireSale): SaleAnswer => ({
    statusCode: 200,
    body: { result: sale, message: SALES_MSG.saleRecorded },
  });
  if (key === undefined)
    return { ...answerOf((await recordSale(db, caller, input, audit)).sale), replay: false };
  const fingerprint = fingerprintOf(input);
  return inTransaction(db, async (tx) => {
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({ callerId: caller.id, key, fingerprint })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length === 0) {
      const [prior] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.callerId, caller.id), eq(idempotencyKeys.key, key)));
      if (prior.fingerprint !== fingerprint || prior.statusCode === null)
        throw conflict(SALES_MSG.idempotencyKeyReused);
      return { statusCode: prior.statusCode, body: prior.answer as SaleAnswer['body'], replay: true };
    }
    const answer = answerOf((await recordSale(tx, caller, input, audit)).sale);
    await tx
      .update(idempotencyKeys)
      .set({ statusCode: answer.statusCode, answer: answer.body })
      .where(and(eq(idempotencyKeys.callerId, caller.id), eq(idempotencyKeys.key, key)));
    return { ...answer, replay: false };
  });
}

/**
 * `bought_products/opening/:id`: the partner's link of a PENDING sale, to reopen it. Only for the person who
 * recorded the sale, or staff; to anyone else the sale does not exist.
 */
export async function openingLinkOf(q: Queryable, viewer: SessionUser, saleId: string): Promise<string> {
  const [row] = await q
    .select({ status: boughtProducts.status, soldBy: boughtProducts.soldBy, url: accountOpenings.url })
    .from(boughtProducts)
    .leftJoin(accountOpenings, eq(accountOpenings.utmCode, boughtProducts.utmCode))
    .where(eq(boughtProducts.id, saleId))
    .limit(1);
  if (!row || (row.soldBy !== viewer.id && !STAFF_TYPES.includes(viewer.type as UserType)))
    throw notFound(SALES_MSG.saleNotFound);
  if (row.status !== SaleStatus.PENDING) throw conflict(SALES_MSG.reopenNotPending(row.status));
  if (!row.url) throw conflict(SALES_MSG.reopenLinkMissing);
  return row.url;
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

export interface CallbackAnswer {
  eventId: string;
  boughtProductId: string;
  status: SaleStatus;
}

// The statements of the callback's hot path, hand-written, its text built once (db/statements.ts).
const LOCK_SALE_BY_UTM = `select ${columnsOf(boughtProducts)} from bought_products where utm_code = $1 for update`;
const RECORD_EVENT = `insert into provider_events (event_id, event, utm_code, merchant_code, bought_product_id, answer)
    values ($1, $2, $3, $4, $5, $6::jsonb) on conflict do nothing returning event_id`;
const CONFIRM_SALE = `update bought_products set status = '${SaleStatus.CONFIRMED}', confirmed_at = $2 where id = $1`;

/**
 * Confirms a PENDING sale: its shares land in five clearing balances (the ledger's creditCommissions). The sale row
 * is updated before the wallets are locked, so the wallet locks (the admin wallet's above all: every sale credits
 * it) are the last taken and held only for the ledger's write (the wallets, the postings, the counters) and the
 * commit.
 */
async function confirm(tx: Tx, sale: SaleRow, ledgerKey: Buffer, now: Date) {
  await runStatement(tx, CONFIRM_SALE, [sale.id, now]);
  await creditCommissions(tx, { saleId: sale.id, shares: sharesOf(sale) }, { ledgerKey, now });
}

/**
 * Reverses a CONFIRMED sale: the ledger takes each commission back (reverseCommissions: out of clearing, or out of
 * available when it was settled, with its tax given back).
 */
async function reverse(tx: Tx, sale: SaleRow, ledgerKey: Buffer, now: Date) {
  await tx
    .update(boughtProducts)
    .set({ status: SaleStatus.REVERSED, reversedAt: now })
    .where(eq(boughtProducts.id, sale.id));
  await reverseCommissions(tx, sale.id, { ledgerKey, now });
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

/** The webhook event and the retailer's SMS of a sale's new status (CONFIRMED, FAILED or REVERSED). */
const SALE_EVENTS = {
  [SaleStatus.CONFIRMED]: 'sale.confirmed',
  [SaleStatus.FAILED]: 'sale.failed',
  [SaleStatus.REVERSED]: 'sale.reversed',
} as const;

/**
 * Tells the sale's retailer (an SMS) and the integrators (a webhook) that it was confirmed, failed or reversed, in
 * the callback's transaction.
 */
async function notifySale(tx: Tx, sale: SaleRow, status: SaleStatus, at: Date) {
  if (status === SaleStatus.PENDING) return;
  const commission = paiseToRupees(sale.retailerShare);
  await notify(tx, SALE_EVENTS[status], {
    to: sale.retailerId ? [{ userId: sale.retailerId }] : [],
    data: { saleId: sale.id, utmCode: sale.utmCode, commission },
    webhook: {
      saleId: sale.id,
      utmCode: sale.utmCode,
      status,
      productId: sale.productId,
      retailerId: sale.retailerId,
      amount: paiseToRupees(sale.amountPaise),
      retailerCommission: commission,
      at: at.toISOString(),
    },
  });
}

/** An eventId the partner already used for a different event (another sale, event or merchant code): 409. */
export class EventIdReused extends HttpError {
  constructor(readonly first: { event: string; utmCode: string; merchantCode: string | null }) {
    super(409, SALES_MSG.eventIdReused);
  }
}

/**
 * Applies one partner event, exactly once per eventId. The sale is locked first, so every delivery for it
 * (the same event again, or another) waits its turn and is judged on the state the previous one left. The
 * event is recorded with what it said and its answer in the same transaction as its effect: the same eventId
 * saying the same finds it and gets the first answer back, even when the sale has moved on since; the same eventId
 * saying something else (another sale, event or merchant code) is refused (EventIdReused) and changes nothing. A
 * refused event is not recorded, so a later retry is judged again. The money moves last (see confirm).
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
      if (!row) return undefined;
      // Events kept before their merchant code was recorded are compared on the rest.
      if (
        row.event !== event.event ||
        row.utmCode !== event.utmCode ||
        (row.merchantCode !== null && row.merchantCode !== event.merchantCode)
      )
        throw new EventIdReused({ event: row.event, utmCode: row.utmCode, merchantCode: row.merchantCode });
      return { answer: row.answer as CallbackAnswer, replay: true };
    };
    const [sale] = await runStatement<SaleRow>(tx, LOCK_SALE_BY_UTM, [event.utmCode]);
    if (!sale) {
      const replay = await prior();
      if (replay) return replay;
      throw notFound(SALES_MSG.callbackUnknownUtm);
    }
    const now = new Date();
    const judged = transition(sale, event, ledgerKey, now);
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
      event.merchantCode,
      sale.id,
      JSON.stringify(answer),
    ]);
    // The eventId is known: the same event again (a replay), or another one (refused). Either way before the effect,
    // so a refused reuse posts nothing; the first delivery's effect was judged and applied under its own record.
    if (recorded.length === 0) return (await prior())!;
    // Before the effect: the audit insert must not lengthen the hold on the wallet locks the effect takes last.
    await audit?.(tx, {
      entityId: sale.id,
      before: { status: sale.status },
      after: { status: judged.next, event: event.event, eventId: event.eventId },
    });
    if (judged.next !== sale.status) {
      await saleChanged(tx, sale, judged.next);
      // The charts' count of the sale's day, before the effect's wallet locks (the money moves last).
      await countStatusChange(tx, sale, sale.status, judged.next);
    }
    await judged.effect?.(tx);
    if (judged.next !== sale.status) await notifySale(tx, sale, judged.next, now);
    return { answer, replay: false };
  });
}
