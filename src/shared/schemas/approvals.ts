import { z } from 'zod';
import { SALES_MSG } from '../constants/sales';
import { MSG } from '../messages';
import { DEFAULT_MAX_AMOUNT_PAISE } from '../money';
import { otpField } from './account';
import { boundedAmount } from './catalog';
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

/** `POST wallet/adjust {userId, amount, reason}`: a signed correction of available, always through approval. */
export const adjustSchemaFor = (maxPaise: number) =>
  z.object({
    userId: idField(MSG.required, SALES_MSG.invalidUser),
    amount: boundedAmount(maxPaise, { signed: true, invalid: SALES_MSG.adjustmentAmount }),
    reason: reasonField(SALES_MSG.adjustmentReasonRequired),
  });
export const adjustSchema = adjustSchemaFor(DEFAULT_MAX_AMOUNT_PAISE);
export type AdjustInput = z.infer<typeof adjustSchema>;

/**
 * The checker's current code (`otp`), asked when the checker has a second step on (step-up: a refusal without it
 * or with a wrong one is a 400 about `otp`, docs/api.md); ignored otherwise.
 */
const stepUp = { otp: otpField.optional() };

/** `POST approvals/approve/:id {otp?}`. */
export const approveSchema = z.object(stepUp);
export type ApproveInput = z.infer<typeof approveSchema>;

/** `POST approvals/reject/:id {reason, otp?}`. */
export const rejectSchema = z.object({ reason: reasonField(SALES_MSG.rejectionReasonRequired), ...stepUp });
export type RejectInput = z.infer<typeof rejectSchema>;
