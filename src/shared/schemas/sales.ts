import { z } from 'zod';
import { SALES_MSG } from '../constants/sales';
import { PROVIDER_EVENTS } from '../enums';
import { MSG } from '../messages';
import { DEFAULT_MAX_AMOUNT_PAISE } from '../money';
import { boundedAmount, URL_DATA_IDENTIFIERS } from './catalog';
import { documentLanguageField } from './documents';
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

/**
 * `POST wallet/settle`: one user's clearing balance (`userId`), or everyone's, asked for explicitly with
 * `all: true`. An empty, null or malformed userId is refused: it never means everyone.
 */
export const settleSchema = z
  .object({
    userId: z.uuid({ error: SALES_MSG.invalidUser }).optional(),
    all: z.literal(true, { error: SALES_MSG.settleAllOnly }).optional(),
  })
  .superRefine((body, ctx) => {
    // Each field's own check speaks for a wrong value; this one for neither or both.
    if ((body.userId === undefined) === (body.all === undefined))
      ctx.addIssue({ code: 'custom', message: SALES_MSG.settleWhom, path: ['userId'] });
  });

/**
 * `POST wallet/payout`: money paid to a user's bank, at most `maxPaise` (the server passes its configured bound;
 * the panel the default); `reference` is the idempotency key (compared trimmed and case-folded).
 */
export const payoutSchemaFor = (maxPaise: number) =>
  z.object({
    userId: idField(MSG.required, SALES_MSG.invalidUser),
    amount: boundedAmount(maxPaise),
    reference: z
      .string({ error: SALES_MSG.referenceRequired })
      .trim()
      .min(1, { error: SALES_MSG.referenceRequired })
      .max(100, { error: SALES_MSG.referenceTooLong }),
  });
/** `GET bought_products/receipt/:id?format=html|pdf`: a sale's receipt, a printable page by default. */
export const RECEIPT_FORMATS = ['html', 'pdf'] as const;
export const receiptQuerySchema = z.object({
  format: z.enum(RECEIPT_FORMATS, { error: SALES_MSG.receiptFormat }).default('html'),
  /** The page's or the PDF's language, the panel's. */
  lang: documentLanguageField,
});
export type ReceiptFormat = (typeof RECEIPT_FORMATS)[number];

export const payoutSchema = payoutSchemaFor(DEFAULT_MAX_AMOUNT_PAISE);
export type PayoutInput = z.infer<typeof payoutSchema>;
