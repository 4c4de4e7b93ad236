import { z } from 'zod';
import { SALES_MSG } from '../constants/sales';
import { PROVIDER_EVENTS } from '../enums';
import { MSG } from '../messages';
import { URL_DATA_IDENTIFIERS } from './catalog';
import { idField } from './locations';

// Zod-free (the sign-in page imports them without zod); re-exported so the server's imports stay.
export { SALES_MSG, utmCodeOf } from '../constants/sales';

/** The account types (seed section 3) and which partner call opens each (seed section 7, payusprint/*). */
export const ACCOUNT_TYPES = URL_DATA_IDENTIFIERS;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export const SAVING_ACCOUNT_TYPES = ['PAYUSPRINT-SAVING'] as const satisfies readonly AccountType[];
export const CURRENT_ACCOUNT_TYPES = [
  'PAYUSPRINT-CURRENT',
  'PAYUSPRINT-SOLE-PROPRIETOR',
] as const satisfies readonly AccountType[];
export type PartnerCall = 'saving_account' | 'current_account';
export const partnerCallFor = (accountType: AccountType): PartnerCall =>
  (SAVING_ACCOUNT_TYPES as readonly string[]).includes(accountType) ? 'saving_account' : 'current_account';

const optionalId = (invalid: string) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), z.uuid({ error: invalid }).optional());

/**
 * `POST payusprint/saving_account` and `payusprint/current_account`. The opening is bound to the product named:
 * `productId` is required, and `accountType` (the product's own when left out) must be the product's.
 */
export const accountOpeningSchema = (call: PartnerCall) =>
  z.object({
    accountType: z
      .enum(call === 'saving_account' ? SAVING_ACCOUNT_TYPES : CURRENT_ACCOUNT_TYPES, {
        error: call === 'saving_account' ? SALES_MSG.savingAccountType : SALES_MSG.currentAccountType,
      })
      .optional(),
    productId: idField(SALES_MSG.openingProductRequired, SALES_MSG.invalidProduct),
    customerId: optionalId(SALES_MSG.invalidCustomer),
  });
export type AccountOpeningInput = z.infer<ReturnType<typeof accountOpeningSchema>>;

const code = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required })
  .max(200, { error: 'At most 200 characters' });

/** `POST bought_products/create` (seed section 3, Bought product). `retailerId` is decided by the server. */
export const boughtProductSchema = z.object({
  customerId: idField(MSG.required, SALES_MSG.invalidCustomer),
  productId: idField(MSG.required, SALES_MSG.invalidProduct),
  retailerId: z.unknown().optional(),
  utmCode: code,
  merchantCode: code,
});
export type BoughtProductInput = z.infer<typeof boughtProductSchema>;

/** The `Idempotency-Key` request header of `bought_products/create` (IETF httpapi-idempotency-key-header). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const idempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, { error: SALES_MSG.idempotencyKeyInvalid });

/** `POST bought_products/callback`: the partner's signed event. */
export const providerCallbackSchema = z.object({
  eventId: code,
  event: z.enum(PROVIDER_EVENTS, { error: `event must be one of ${PROVIDER_EVENTS.join(', ')}` }),
  utmCode: code,
  merchantCode: code,
});
export type ProviderCallback = z.infer<typeof providerCallbackSchema>;

/** `POST wallet/settle`: one user's clearing balance, or everyone's. */
export const settleSchema = z.object({ userId: optionalId(SALES_MSG.invalidUser) });

/** Rupees with at most two decimals, more than zero -> paise. */
const rupeeAmount = z.union([z.string(), z.number()], { error: MSG.required }).transform((value, ctx) => {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(text) || Number(text) <= 0 || Number(text) > 1e11) {
    ctx.addIssue({ code: 'custom', message: SALES_MSG.amount });
    return z.NEVER;
  }
  const [whole, fraction = ''] = text.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
});

/** `POST wallet/payout`: money paid to a user's bank; `reference` is the idempotency key. */
export const payoutSchema = z.object({
  userId: idField(MSG.required, SALES_MSG.invalidUser),
  amount: rupeeAmount,
  reference: z
    .string({ error: SALES_MSG.referenceRequired })
    .trim()
    .min(1, { error: SALES_MSG.referenceRequired })
    .max(100, { error: SALES_MSG.referenceTooLong }),
});
export type PayoutInput = z.infer<typeof payoutSchema>;
