import { z } from 'zod';
import { MSG } from '../messages';
import { PASSWORD_PATTERN, USERNAME_MIN_LENGTH } from '../rules';

const requiredText = (max = 200) =>
  z
    .string({ error: MSG.required })
    .trim()
    .min(1, { error: MSG.required })
    .max(max, { error: `At most ${max} characters` });

/** Seed section 5, Login: userName required, min 4; password required. */
export const loginSchema = z.object({
  userName: requiredText(100).pipe(z.string().min(USERNAME_MIN_LENGTH, { error: MSG.minLength })),
  password: z.string({ error: MSG.required }).min(1, { error: MSG.required }).max(200),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** Seed section 5, Password change. */
export const resetPasswordSchema = z
  .object({
    oldPassword: z.string({ error: MSG.required }).min(1, { error: MSG.required }).max(200),
    newPassword: z
      .string({ error: MSG.required })
      .min(1, { error: MSG.required })
      .max(200)
      .regex(PASSWORD_PATTERN, { error: MSG.passwordPattern }),
    confirmPassword: z.string({ error: MSG.required }).min(1, { error: MSG.required }).max(200),
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
