import { NOT_RECORDED } from '../../../shared/audit';
import { MOBILE_PATTERN, maskEmail, maskMobile, maskPan } from '../../../shared/identity';

type Fields = Record<string, unknown>;

/** Fields never recorded at all, not even masked. */
const SECRET = /^(password|confirmPassword|oldPassword|newPassword|token|seal)$|hash$|cipher$|secret/i;
/** Aadhar numbers: the trail shows that one changed, never the number. */
const AADHAR = /aadhar/i;

/** One recorded value, masked by its field name (see docs/security.md, Personal data). */
export function maskField(field: string, value: unknown): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (AADHAR.test(field)) return NOT_RECORDED;
  if (typeof value !== 'string') return value;
  if (/mobile$/i.test(field)) return maskMobile(value);
  if (/email$/i.test(field)) return maskEmail(value);
  if (/^pan(Id|Number)?$/i.test(field)) return maskPan(value);
  if (field === 'userName' && MOBILE_PATTERN.test(value)) return maskMobile(value);
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * What a change recorded: the fields whose values differ, before and after, masked. A create has no
 * `before` (all of `after` is recorded), a removal no `after`. Secrets are dropped; an Aadhar number that
 * changed shows as changed (the views compare its keyed hash) with neither value.
 */
export function changedFields(
  before: Fields | null | undefined,
  after: Fields | null | undefined,
): { before: Fields | null; after: Fields | null } {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const b: Fields = {};
  const a: Fields = {};
  for (const key of keys) {
    if (SECRET.test(key) && !AADHAR.test(key)) continue;
    if (before && after && same(before[key], after[key])) continue;
    if (before) b[key] = maskField(key, before[key]);
    if (after) a[key] = maskField(key, after[key]);
  }
  return { before: before ? b : null, after: after ? a : null };
}
