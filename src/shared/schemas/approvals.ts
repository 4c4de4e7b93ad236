import { z } from 'zod';
import { CATALOG_MSG } from '../constants/catalog';
import { SALES_MSG } from '../constants/sales';
import { formatRupees } from '../format';
import { MSG } from '../messages';
import { DEFAULT_MAX_AMOUNT_PAISE, paiseToRupees } from '../money';
import { idField } from './locations';

/** Maker-checker (issue 43): the pending commands' kinds and states. */
export const COMMAND_KINDS = ['PAYOUT', 'ADJUSTMENT'] as const;
export type CommandKind = (typeof COMMAND_KINDS)[number];
export const COMMAND_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

const reasonField = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .max(500, { error: SALES_MSG.reasonTooLong });

/**
 * A signed amount of rupees (a credit above zero, a debit below), at most 2 decimals, never 0, at most `maxPaise`
 * either way: integer paise, read exactly (bigint) before it becomes a number.
 */
const signedAmount = (maxPaise: number) =>
  z.union([z.string(), z.number()], { error: MSG.required }).transform((value, ctx) => {
    const text = typeof value === 'number' ? String(value) : value.trim();
    if (text === '') {
      ctx.addIssue({ code: 'custom', message: MSG.required });
      return z.NEVER;
    }
    const match = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(text);
    const paise = match ? BigInt(match[2]) * 100n + BigInt((match[3] ?? '').padEnd(2, '0')) : null;
    if (paise === null || paise === 0n) {
      ctx.addIssue({ code: 'custom', message: SALES_MSG.adjustmentAmount });
      return z.NEVER;
    }
    if (paise > BigInt(maxPaise)) {
      ctx.addIssue({
        code: 'custom',
        message: CATALOG_MSG.amountAboveBound(formatRupees(paiseToRupees(maxPaise))),
      });
      return z.NEVER;
    }
    return Number(match?.[1] ? -paise : paise);
  });

/** `POST wallet/adjust {userId, amount, reason}`: a signed correction of available, always through approval. */
export const adjustSchemaFor = (maxPaise: number) =>
  z.object({
    userId: idField(MSG.required, SALES_MSG.invalidUser),
    amount: signedAmount(maxPaise),
    reason: reasonField(SALES_MSG.adjustmentReasonRequired),
  });
export const adjustSchema = adjustSchemaFor(DEFAULT_MAX_AMOUNT_PAISE);
export type AdjustInput = z.infer<typeof adjustSchema>;

/** `POST approvals/reject/:id {reason}`. */
export const rejectSchema = z.object({ reason: reasonField(SALES_MSG.rejectionReasonRequired) });
export type RejectInput = z.infer<typeof rejectSchema>;
