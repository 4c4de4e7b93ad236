import { z } from 'zod';
import { reconcileReportSchema, wireWalletSchema } from '../wire';
import { isoTime } from './dates';

/**
 * The Books screen (issue 43, ADMIN): the latest reconcile result, the admin's own wallet, TDS payable, what the
 * network is owed, and a preview of "settle all". Money in rupees, as everywhere on the wire.
 */

/** Where a recorded reconcile run came from: an admin's Run (HTTP) or `npm run reconcile` (CLI). */
export const RECONCILE_SOURCES = ['HTTP', 'CLI'] as const;
export type ReconcileSource = (typeof RECONCILE_SOURCES)[number];

/** One recorded run of reconcile: when, whether the books held, who ran it, and the whole report (its findings). */
export const reconcileRunSchema = z.strictObject({
  _id: z.string(),
  ranAt: isoTime,
  ok: z.boolean(),
  source: z.enum(RECONCILE_SOURCES),
  /** The admin who pressed Run; null for the command line (or a user since removed). */
  ranBy: z.strictObject({ _id: z.string(), name: z.string() }).nullable(),
  report: reconcileReportSchema,
});
export type ReconcileRun = z.infer<typeof reconcileRunSchema>;

/** `GET books/fetch`. */
export const booksFetchResultSchema = z.strictObject({
  /** The latest recorded run on any server, or null when reconcile never ran. */
  reconcile: reconcileRunSchema.nullable(),
  /** The caller's own wallet (the admin's share of every sale). */
  wallet: wireWalletSchema,
  /** Tax withheld and not yet deposited (section 194H); below zero only when tax already deposited was given back. */
  tdsPayable: z.number(),
  /** What wallets owe the network: the available balances below zero, as a positive sum (reconcile's `totals.owed`). */
  owed: z.number(),
});
export type BooksFetchResult = z.infer<typeof booksFetchResultSchema>;

/**
 * `GET books/settlePreview`: what `POST wallet/settle {all: true}` would move now, computed by running that very
 * settlement and rolling it back: commissions, users, rupees made available, and the tax it would withhold.
 */
export const settlePreviewSchema = z.strictObject({
  settled: z.number(),
  users: z.number(),
  amount: z.number(),
  tds: z.number(),
});
export type SettlePreview = z.infer<typeof settlePreviewSchema>;
