import { z } from 'zod';
import { challanSerialOf, TDS_MSG, TDS_QUARTERS } from '../constants/tds';
import { MSG } from '../messages';
import { boundedAmount } from './catalog';
import { isoDay, isoTime } from './dates';
import { documentLanguageField } from './documents';
import { idField } from './locations';

export { TDS_MSG, TDS_QUARTERS, TDS_SECTION } from '../constants/tds';

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (text: string) => {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
};

/**
 * `POST tds/deposit`: a challan paid into the government's account, against TDS payable. The challan (BSR code of
 * the bank branch, serial number, date) is recorded once, its serial in five digits; `amount` in rupees. `today` (YYYY-MM-DD, India) bounds
 * the date.
 */
export const tdsDepositSchemaFor = (maxPaise: number, today: () => string) =>
  z.object({
    bsrCode: z
      .string({ error: TDS_MSG.bsrCode })
      .trim()
      .regex(/^\d{7}$/, { error: TDS_MSG.bsrCode }),
    // Read as its five digits (`17` is `00017`): the same challan whatever its leading zeros.
    challanSerial: z
      .string({ error: TDS_MSG.challanSerial })
      .trim()
      .regex(/^\d{1,5}$/, { error: TDS_MSG.challanSerial })
      .transform(challanSerialOf),
    date: z
      .string({ error: TDS_MSG.date })
      .trim()
      .refine((text) => isoDate.test(text) && isRealDate(text) && text <= today(), { error: TDS_MSG.date }),
    amount: boundedAmount(maxPaise),
  });
export type TdsDepositInput = z.infer<ReturnType<typeof tdsDepositSchemaFor>>;

const fyField = z
  .string({ error: TDS_MSG.fy })
  .trim()
  .regex(/^\d{4}-\d{2}$/, { error: TDS_MSG.fy })
  .refine((text) => (Number(text.slice(0, 4)) + 1) % 100 === Number(text.slice(5)), { error: TDS_MSG.fy });
const quarterField = z.enum(TDS_QUARTERS, { error: TDS_MSG.quarter });

/** `GET tds/fetch?fy=2026-27&quarter=Q3[&format=csv]`. */
export const tdsFetchQuerySchema = z.object({
  fy: fyField,
  quarter: quarterField,
  format: z.enum(['json', 'csv'], { error: TDS_MSG.format }).default('json'),
});

/** `GET tds/deposits?fy=2026-27&quarter=Q3`: the challans dated in a quarter. */
export const tdsPeriodQuerySchema = z.object({ fy: fyField, quarter: quarterField });

/** `GET tds/certificate?userId&fy&quarter[&format=pdf][&lang=en|hi]`. */
export const tdsCertificateQuerySchema = z.object({
  userId: idField(MSG.required, TDS_MSG.userNotFound),
  fy: fyField,
  quarter: quarterField,
  format: z.enum(['json', 'pdf'], { error: TDS_MSG.format }).default('json'),
  /** The PDF's language. */
  lang: documentLanguageField,
});

/**
 * `GET tds/quarters[?userId]`: a deductee's quarters, each with its certificate. A tier user reads its own (userId
 * left out, or its own id); staff name the deductee.
 */
export const tdsQuartersQuerySchema = z.object({
  userId: idField(MSG.required, TDS_MSG.userNotFound).optional(),
});

const day = isoDay.nullable();

/**
 * A deductee's commission and tax of a quarter at one rate and PAN (Form 26Q's deductee details): a deductee whose
 * tax was withheld at 20% without a PAN and at 2% with one has a row for each. Amounts in rupees, the rate in
 * percent.
 */
const deducteeFigures = {
  /**
   * The PAN the tax was withheld under (recorded with each withholding); on the row of commission no tax was withheld
   * on, the deductee's PAN now.
   */
  panId: z.string().nullable(),
  /** Commission made available in the quarter (settled), less settled commission reversed in it. */
  credited: z.number(),
  /** Tax withheld in the quarter, less tax given back in it. */
  tds: z.number(),
  /**
   * The rate the tax was withheld at; null on the row of commission no tax was withheld on by the quarter's end (the
   * year's settled commission not past the threshold then).
   */
  rate: z.number().nullable(),
  /** India's dates of the row's last credit and last deduction in the quarter. */
  creditedOn: day,
  deductedOn: day,
};

/** One row of a quarter's deductees: a deductee, a rate and a PAN. */
export const tdsDeducteeSchema = z.strictObject({
  userId: z.string(),
  name: z.string(),
  ...deducteeFigures,
});
export type TdsDeductee = z.infer<typeof tdsDeducteeSchema>;

export const tdsFetchResultSchema = z.strictObject({
  fy: z.string(),
  quarter: quarterField,
  from: isoDay,
  to: isoDay,
  section: z.string(),
  deductees: z.array(tdsDeducteeSchema),
  totals: z.strictObject({ credited: z.number(), tds: z.number() }),
});
export type TdsFetchResult = z.infer<typeof tdsFetchResultSchema>;

/**
 * One withholding or return of a certificate's quarter, with the rate and PAN the tax was withheld at (a return:
 * those of the withholding it gives back).
 */
export const tdsCertificateLineSchema = z.strictObject({
  date: isoDay,
  kind: z.enum(['WITHHELD', 'RETURNED']),
  /** The commission taxed (a withholding); null on a return. */
  credited: z.number().nullable(),
  rate: z.number(),
  panId: z.string().nullable(),
  tds: z.number(),
});

/** Form 16A's data for one deductee and quarter. */
export const tdsCertificateSchema = z.strictObject({
  deductor: z.strictObject({ name: z.string() }),
  /** `panId`: the deductee's PAN now; each row and line says the PAN its tax was withheld under. */
  deductee: z.strictObject({ userId: z.string(), name: z.string(), panId: z.string().nullable() }),
  fy: z.string(),
  quarter: quarterField,
  from: isoDay,
  to: isoDay,
  section: z.string(),
  /** The sums of `rows`. */
  credited: z.number(),
  tds: z.number(),
  /** The deductee's rows of the quarter's deductees (tds/fetch): one per rate and PAN. */
  rows: z.array(z.strictObject(deducteeFigures)),
  lines: z.array(tdsCertificateLineSchema),
});
export type TdsCertificate = z.infer<typeof tdsCertificateSchema>;

export const tdsDepositResultSchema = z.strictObject({
  _id: z.string(),
  bsrCode: z.string(),
  challanSerial: z.string(),
  date: isoDay,
  amount: z.number(),
  /** TDS payable after the deposit (rupees). */
  tdsPayable: z.number(),
  createdAt: isoTime,
});

/** One challan deposited against TDS payable. */
export const tdsDepositSchema = tdsDepositResultSchema.omit({ tdsPayable: true });
export type TdsDeposit = z.infer<typeof tdsDepositSchema>;

/** `GET tds/deposits`: the quarter's challans by their date, oldest first, and TDS payable now (rupees). */
export const tdsDepositsResultSchema = z.strictObject({
  fy: z.string(),
  quarter: quarterField,
  from: isoDay,
  to: isoDay,
  deposits: z.array(tdsDepositSchema),
  total: z.number(),
  tdsPayable: z.number(),
});
export type TdsDepositsResult = z.infer<typeof tdsDepositsResultSchema>;

/** One quarter of a deductee: its figures as its certificate sums them (rupees). */
export const tdsQuarterTotalsSchema = z.strictObject({
  fy: z.string(),
  quarter: quarterField,
  /** Its first and last day. */
  from: isoDay,
  to: isoDay,
  credited: z.number(),
  tds: z.number(),
});
export type TdsQuarterTotals = z.infer<typeof tdsQuarterTotalsSchema>;

/** `GET tds/quarters`: the deductee, and every quarter it had commission credited or tax withheld in, newest first. */
export const tdsQuartersResultSchema = z.strictObject({
  user: z.strictObject({ _id: z.string(), name: z.string(), panId: z.string().nullable() }),
  quarters: z.array(tdsQuarterTotalsSchema),
});
export type TdsQuartersResult = z.infer<typeof tdsQuartersResultSchema>;
