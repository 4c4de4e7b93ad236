import { z } from 'zod';
import { MAX_TREND_DAYS, REPORT_MSG } from '../constants/reports';
import { isoDay } from './dates';
import { monthField } from './statements';

// Zod-free (the panel's chunks import them without zod); re-exported so the server's imports stay.
export { MAX_TREND_DAYS, REPORT_MSG } from '../constants/reports';

/** `GET report/trends?days=30`: the last `days` days, today (India's calendar) the last. */
export const trendsQuerySchema = z.object({
  days: z.coerce
    .number({ error: REPORT_MSG.days })
    .int({ error: REPORT_MSG.days })
    .min(1, { error: REPORT_MSG.days })
    .max(MAX_TREND_DAYS, { error: REPORT_MSG.days })
    .default(30),
});

/** `GET report/top?month=YYYY-MM&limit=10` and `GET report/products?month=YYYY-MM` (limit: the lists' own rule). */
export const monthReportQuerySchema = z.object({ month: monthField });

/**
 * One day of the caller's network: `commission` (rupees) credited that day, as the Commissions Today tile counts it;
 * `sales` recorded that day, and of those `confirmed` and `failed` now.
 */
export const trendDaySchema = z.strictObject({
  day: isoDay,
  commission: z.number(),
  sales: z.number(),
  confirmed: z.number(),
  failed: z.number(),
});
export type TrendDay = z.infer<typeof trendDaySchema>;
export const trendsSchema = z.strictObject({ days: z.array(trendDaySchema) });

/** A retailer of the caller's network and its own commission (rupees) credited in the month. */
export const topRetailerSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  commission: z.number(),
});
export type TopRetailer = z.infer<typeof topRetailerSchema>;
export const topRetailersSchema = z.strictObject({
  month: z.string(),
  retailers: z.array(topRetailerSchema),
});

/** A product's sales recorded in the month in the caller's network, and of those confirmed and failed now. */
export const productSalesSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  sales: z.number(),
  confirmed: z.number(),
  failed: z.number(),
});
export type ProductSales = z.infer<typeof productSalesSchema>;
export const productsReportSchema = z.strictObject({
  month: z.string(),
  products: z.array(productSalesSchema),
});
