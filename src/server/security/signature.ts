import { createHmac, timingSafeEqual } from 'node:crypto';

/** Callbacks signed more than this far from the server's clock are refused (replays of old deliveries). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
export const SIGNATURE_HEADER = 'x-provider-signature';

const hmac = (secret: string, t: string, rawBody: Buffer | string) =>
  createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, as the partner sends it. */
export function signCallback(secret: string, rawBody: Buffer | string, now = Date.now()): string {
  const t = String(Math.floor(now / 1000));
  return `t=${t},v1=${hmac(secret, t, rawBody).toString('hex')}`;
}

export type SignatureCheck = 'ok' | 'missing' | 'invalid' | 'expired';

/**
 * Checks `X-Provider-Signature` over the raw request bytes. Every v1 value is compared in constant time (a
 * partner rotating its secret may send two); the timestamp must be within the tolerance of now.
 */
export function verifySignature(
  secret: string,
  header: string | string[] | undefined,
  rawBody: Buffer,
  now = Date.now(),
): SignatureCheck {
  if (typeof header !== 'string' || header.trim() === '') return 'missing';
  let t: string | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const [key, value = ''] = part.trim().split('=', 2);
    if (key === 't') t = value;
    else if (key === 'v1') candidates.push(value);
  }
  if (!t || !/^\d{1,12}$/.test(t) || candidates.length === 0) return 'invalid';
  const expected = hmac(secret, t, rawBody);
  const matches = candidates.some((v1) => {
    if (!/^[0-9a-f]{64}$/.test(v1)) return false;
    return timingSafeEqual(Buffer.from(v1, 'hex'), expected);
  });
  if (!matches) return 'invalid';
  if (Math.abs(now / 1000 - Number(t)) > SIGNATURE_TOLERANCE_SECONDS) return 'expired';
  return 'ok';
}
