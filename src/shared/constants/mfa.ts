// Two-step sign-in (TOTP) and sessions: the texts both sides use, without zod so the sign-in page can import them.

/** RFC 6238 as every authenticator app reads it: HMAC-SHA-1, 6 digits, a 30-second step. */
export const TOTP_SETTINGS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;

/** A code is accepted one step either way of the server's clock (a phone's clock a little off), never two. */
export const TOTP_WINDOW = 1;

/** How many recovery codes switching the second step on gives, each good for one sign-in. */
export const RECOVERY_CODE_COUNT = 10;

/** The issuer an authenticator app lists the account under. */
export const TOTP_ISSUER = 'Tierdesk';

export const MFA_MSG = {
  codeRequired: 'Enter the code from your authenticator app',
  codeFormat: 'The code is the 6 digits your authenticator app shows',
  wrongCode: 'This code is not right. Enter the code your authenticator app shows now.',
  usedCode: 'This code has been used already. Enter the next code your authenticator app shows.',
  wrongRecoveryCode: 'This recovery code is not right, or it has been used already',
  setupRequired: 'Set up two-step sign-in first',
  alreadyOn: 'Two-step sign-in is on already. Switch it off before you set it up again.',
  notSetUp: 'Start the set-up of two-step sign-in first',
  notOn: 'Two-step sign-in is not on',
  requiredForYou: 'Two-step sign-in is required for your account: it cannot be switched off',
  enabled: 'Two-step sign-in is on',
  disabled: 'Two-step sign-in is off',
  sessionNotFound: 'Session not found',
  sessionEnded: 'Session ended',
  tooManyCodeAttempts: (minutes: number) =>
    `Too many wrong codes. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
} as const;

/** A 6-digit code as typed: digits only (an app's "123 456" is sent without the space by the forms). */
export const OTP_PATTERN = /^\d{6}$/;
