import { z } from 'zod';
import type { CommissionField } from '../constants/catalog';
import { CATALOG_MSG, COMMISSION_FIELDS, REQUEST_METHODS, URL_DATA_IDENTIFIERS } from '../constants/catalog';
import { toHundredths } from '../decimal';
import { formatRupees } from '../format';
import { MSG } from '../messages';
import { DEFAULT_MAX_AMOUNT_PAISE, paiseToRupees } from '../money';
import { idField, nameField } from './locations';

export type { CommissionField } from '../constants/catalog';
// Zod-free (the sign-in page imports them without zod); re-exported so the server's imports stay.
export { CATALOG_MSG, COMMISSION_FIELDS, REQUEST_METHODS, URL_DATA_IDENTIFIERS } from '../constants/catalog';

/** An absolute http:// or https:// address with a host (the product URL rule). */
export const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname;
  } catch {
    return false;
  }
};

/** A decimal with at most 2 places, as a number or a string; parsed to integer hundredths. */
const hundredths = (message: string, check: (h: number) => boolean) =>
  z.union([z.string(), z.number()], { error: MSG.required }).transform((value, ctx) => {
    const h = value === '' ? null : toHundredths(value);
    if (h === null || !check(h)) {
      ctx.addIssue({ code: 'custom', message: value === '' ? MSG.required : message });
      return z.NEVER;
    }
    return h;
  });

/** Sum of the five commissions in hundredths; exactly 10000 means 100%. */
export const commissionTotal = (values: Partial<Record<CommissionField, unknown>>): number | null => {
  let total = 0;
  for (const field of COMMISSION_FIELDS) {
    const h = toHundredths(values[field]);
    if (h === null) return null;
    total += h;
  }
  return total;
};

export const providerSchema = z.object({ name: nameField(CATALOG_MSG.providerNameRequired) });

/**
 * A money amount in rupees with at most two decimals, never zero and at most `maxPaise` either way (the configured
 * bound, MAX_AMOUNT_RUPEES), parsed exactly (bigint) to integer paise. Above zero unless `signed` (an adjustment:
 * below zero is a debit). Digits past the bound are refused with the bound, however many.
 */
export const boundedAmount = (maxPaise: number, opts: { signed?: boolean; invalid?: string } = {}) =>
  z.union([z.string(), z.number()], { error: MSG.required }).transform((value, ctx) => {
    const text = typeof value === 'number' ? String(value) : value.trim();
    if (text === '') {
      ctx.addIssue({ code: 'custom', message: MSG.required });
      return z.NEVER;
    }
    const match = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(text);
    const negative = !!match?.[1];
    const paise = match ? BigInt(match[2]) * 100n + BigInt((match[3] ?? '').padEnd(2, '0')) : null;
    if (paise === null || paise === 0n || (negative && !opts.signed)) {
      ctx.addIssue({ code: 'custom', message: opts.invalid ?? CATALOG_MSG.amount });
      return z.NEVER;
    }
    if (paise > BigInt(maxPaise)) {
      ctx.addIssue({
        code: 'custom',
        message: CATALOG_MSG.amountAboveBound(formatRupees(paiseToRupees(maxPaise))),
      });
      return z.NEVER;
    }
    return Number(negative ? -paise : paise);
  });

/** A product, its amount at most `maxPaise` (the server passes its configured bound; the panel the default). */
export const productSchemaFor = (maxPaise: number) =>
  z
    .object({
      providerId: idField(CATALOG_MSG.providerRequired, CATALOG_MSG.invalidProvider),
      name: nameField(CATALOG_MSG.productNameRequired),
      url: z
        .string({ error: CATALOG_MSG.urlRequired })
        .trim()
        .min(1, { error: CATALOG_MSG.urlRequired })
        .max(2000)
        .refine(isHttpUrl, { error: CATALOG_MSG.invalidUrl }),
      amount: boundedAmount(maxPaise),
      adminCommission: hundredths(CATALOG_MSG.commission, (h) => h <= 10000),
      masterDistributorCommission: hundredths(CATALOG_MSG.commission, (h) => h <= 10000),
      distributorCommission: hundredths(CATALOG_MSG.commission, (h) => h <= 10000),
      retailerCommission: hundredths(CATALOG_MSG.commission, (h) => h <= 10000),
      customerCommission: hundredths(CATALOG_MSG.commission, (h) => h <= 10000),
      urlParams: z
        .object({
          reqType: z.enum(REQUEST_METHODS, { error: CATALOG_MSG.reqType }).default('GET'),
          data: z.enum(URL_DATA_IDENTIFIERS, { error: CATALOG_MSG.urlData }).default(URL_DATA_IDENTIFIERS[0]),
        })
        .default({ reqType: 'GET', data: URL_DATA_IDENTIFIERS[0] }),
    })
    .superRefine((p, ctx) => {
      const total = COMMISSION_FIELDS.reduce((sum, field) => sum + p[field], 0);
      if (total !== 10000)
        ctx.addIssue({ code: 'custom', message: CATALOG_MSG.commissionTotal, path: ['commission'] });
    });
export const productSchema = productSchemaFor(DEFAULT_MAX_AMOUNT_PAISE);
export type ProductInput = z.infer<typeof productSchema>;
