import { z } from 'zod';
import { MFA_MSG, OTP_PATTERN } from '../constants/mfa';
import { MSG } from '../messages';
import { PASSWORD_PATTERN, USERNAME_MIN_LENGTH } from '../rules';

export { MFA_MSG } from '../constants/mfa';

const requiredText = (max = 200) =>
  z
    .string({ error: MSG.required })
    .trim()
    .min(1, { error: MSG.required })
    .max(max, { error: MSG.atMost(max) });

/** A password as typed: required, at most 200 characters (as requiredText). */
const passwordText = () =>
  z
    .string({ error: MSG.required })
    .min(1, { error: MSG.required })
    .max(200, { error: MSG.atMost(200) });

/** A code from an authenticator app (TOTP): 6 digits. */
export const otpField = z
  .string({ error: MFA_MSG.codeRequired })
  .trim()
  .min(1, { error: MFA_MSG.codeRequired })
  .regex(OTP_PATTERN, { error: MFA_MSG.codeFormat });

/** One of the recovery codes given when the second step was switched on (any case, with or without its dash). */
export const recoveryCodeField = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required })
  .max(64, { error: MFA_MSG.wrongRecoveryCode });

/**
 * Seed section 5, Login: userName required, min 4; password required. With a second step on, the code (`otp`) or a
 * recovery code beside them (docs/api.md, Two-step sign-in).
 */
export const loginSchema = z.object({
  userName: requiredText(100).pipe(z.string().min(USERNAME_MIN_LENGTH, { error: MSG.minLength })),
  password: passwordText(),
  otp: otpField.optional(),
  recoveryCode: recoveryCodeField.optional(),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** Seed section 5, Password change. */
export const resetPasswordSchema = z
  .object({
    oldPassword: passwordText(),
    newPassword: z
      .string({ error: MSG.required })
      .min(1, { error: MSG.required })
      .max(200, { error: MSG.atMost(200) })
      .regex(PASSWORD_PATTERN, { error: MSG.passwordPattern }),
    confirmPassword: passwordText(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    error: MSG.passwordMismatch,
    path: ['confirmPassword'],
    // As soon as both are filled in, beside the other fields' issues (the form shows it while typing).
    when: ({ value }) => {
      const v = value as Record<string, unknown> | null;
      return (
        typeof v?.newPassword === 'string' && typeof v?.confirmPassword === 'string' && !!v.confirmPassword
      );
    },
  });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** `POST account/mfa/enable {otp}`: a code of the secret `account/mfa/setup` gave switches the second step on. */
export const mfaEnableSchema = z.object({ otp: otpField });
export type MfaEnableInput = z.infer<typeof mfaEnableSchema>;

/** `POST account/mfa/disable {otp}` (or `{recoveryCode}`, for someone who lost the app): switches it off. */
export const mfaDisableSchema = z
  .object({ otp: otpField.optional(), recoveryCode: recoveryCodeField.optional() })
  .refine((v) => v.otp !== undefined || v.recoveryCode !== undefined, {
    error: MFA_MSG.codeRequired,
    path: ['otp'],
  });
export type MfaDisableInput = z.infer<typeof mfaDisableSchema>;
