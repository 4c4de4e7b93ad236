// The audit constants both sides use, without zod so the sign-in page can import them (schemas re-export them).
import { AUDIT_ENTITIES } from '../audit';
import { FILTER_YEARS } from '../rules';

export const AUDIT_MSG = {
  invalidUser: 'Invalid user id',
  invalidEntity: `entity must be one of ${AUDIT_ENTITIES.join(', ')}`,
  invalidAction: 'Unknown action',
  invalidDate: 'Must be a date (YYYY-MM-DD) or an ISO 8601 date-time',
  invalidDay: 'Must be a date (YYYY-MM-DD)',
  dateOutOfRange: `Must be a date from ${FILTER_YEARS.first}-01-01 to ${FILTER_YEARS.last}-12-31`,
  impossibleDate: 'No such date in the calendar',
  fromAfterTo: 'from must not be later than to',
} as const;
