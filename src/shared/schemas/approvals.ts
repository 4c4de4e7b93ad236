import { z } from 'zod';
import { APPROVAL_MSG } from '../constants/approvals';
import { SALES_MSG } from '../constants/sales';
import { MSG } from '../messages';
import { DEFAULT_MAX_AMOUNT_PAISE } from '../money';
import { otpField } from './account';
import { boundedAmount } from './catalog';
import { idField } from './locations';

export { APPROVAL_MSG } from '../constants/approvals';

/**
 * Maker-checker (issues 43 and 51): the pending commands' kinds and states. Money commands move a tier user's
 * wallet; power commands make an admin or reset another admin's password or second step.
 */
export const MONEY_COMMAND_KINDS = ['PAYOUT', 'ADJUSTMENT'] as const;
export const POWER_COMMAND_KINDS = [
  'ADMIN_CREATE',
  'ADMIN_PROMOTE',
  'ADMIN_PASSWORD_RESET',
  'ADMIN_SECOND_STEP_RESET',
] as const;
export const COMMAND_KINDS = [...MONEY_COMMAND_KINDS, ...POWER_COMMAND_KINDS] as const;
export type CommandKind = (typeof COMMAND_KINDS)[number];
export type PowerCommandKind = (typeof POWER_COMMAND_KINDS)[number];
export const COMMAND_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

export const isMoneyCommand = (kind: string): kind is (typeof MONEY_COMMAND_KINDS)[number] =>
  (MONEY_COMMAND_KINDS as readonly string[]).includes(kind);

/** The most characters an adjustment's note (the statement's line) may hold, as a payout's reference. */
export const NOTE_MAX_LENGTH = 100;

const reasonField = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .max(500, { error: SALES_MSG.reasonTooLong });

/**
 * `POST wallet/adjust {userId, amount, note, reason}`: a signed correction of a tier user's available balance,
 * always through approval. The note is what the statement shows; the reason is for staff only.
 */
export const adjustSchemaFor = (maxPaise: number) =>
  z.object({
    userId: idField(MSG.required, SALES_MSG.invalidUser),
    amount: boundedAmount(maxPaise, { signed: true, invalid: SALES_MSG.adjustmentAmount }),
    note: z
      .string({ error: SALES_MSG.adjustmentNoteRequired })
      .trim()
      .min(1, { error: SALES_MSG.adjustmentNoteRequired })
      .max(NOTE_MAX_LENGTH, { error: SALES_MSG.noteTooLong }),
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

/** `POST account/promote/:id`, `account/resetPassword/:id`, `account/resetSecondStep/:id`: why, for the checker. */
export const powerRequestSchema = z.object({ reason: reasonField(APPROVAL_MSG.reasonRequired) });
export type PowerRequestInput = z.infer<typeof powerRequestSchema>;
