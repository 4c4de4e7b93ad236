/** Constants of seed section 9 and the rules both sides check. */
export const PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
export const PUBLIC_LOOKUP_LIMIT = 10;
export const USERNAME_MIN_LENGTH = 4;
export const PASSWORD_MIN_LENGTH = 8;
export const TOAST_MS = 5000;
export const TYPEAHEAD_DEBOUNCE_MS = 200;

/** At least 8 chars with an upper case letter, a lower case letter, a digit and one of # ? ! @ $ % ^ & * - */
export const PASSWORD_PATTERN = /^(?=.*?[A-Z])(?=.*?[a-z])(?=.*?[0-9])(?=.*?[#?!@$%^&*-]).{8,}$/;

/**
 * Password guessing (docs/security.md): failed passwords (sign-in or password change) are counted per account
 * in the database, so every server agrees. `maxFailures` from one address lock that address out of the
 * account; `maxAccountFailures` from all addresses together lock the account for everyone. `perAddress`
 * caps sign-in attempts from one address across every user name (password spraying), per server.
 */
export const LOGIN_THROTTLE = {
  maxFailures: 5,
  maxAccountFailures: 20,
  windowMinutes: 15,
  perAddress: { max: 30, windowMinutes: 15 },
} as const;

/**
 * The years a date filter may name (the audit trail's From and To): every record Tierdesk can hold, and far inside
 * what JavaScript, PGlite and PostgreSQL can all represent, so a date past them is a 400, never a 500.
 */
export const FILTER_YEARS = { first: 2000, last: 2100 } as const;
