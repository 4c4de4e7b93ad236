import { z } from 'zod';
import { isHttpUrl } from '../../../shared/schemas/catalog';
import { SALES_MSG, utmCodeOf } from '../../../shared/schemas/sales';
import { HttpError } from '../../http/errors';
import { SIGNATURE_HEADER, signCallback } from '../../security/signature';

/** Where an account-opening request goes: the product's URL and method, or the configured base + the seed's path. */
export interface PartnerTarget {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /**
   * Signs the JSON body with this secret (X-Provider-Signature, as the partner signs its callbacks): the built-in
   * sandbox partner answers only calls signed so. Never set for the real partner.
   */
  signingSecret?: string;
}

/** The partner's answer (seed section 7): `{ result: { result: { data: URL }, merchantCode } }`. */
const partnerAnswer = z.object({
  result: z.object({
    result: z.object({ data: z.string().refine((url) => isHttpUrl(url) && utmCodeOf(url).length > 0) }),
    merchantCode: z.string().trim().min(1).max(200),
  }),
});

const badGateway = (message: string) => new HttpError(502, message);

/**
 * Asks the partner to open an account over real HTTP. Its refusals and unreadable answers become 502, a
 * timeout 504 (`timeoutMs`), each in the wire contract's error shape; nothing is recorded by the caller then.
 */
export async function requestAccountOpening(
  target: PartnerTarget,
  body: Record<string, unknown>,
  timeoutMs: number,
): Promise<{ url: string; utmCode: string; merchantCode: string }> {
  let url = target.url;
  const init: RequestInit = {
    method: target.method,
    headers: { accept: 'application/json', ...target.headers },
    signal: AbortSignal.timeout(timeoutMs),
    redirect: 'error',
  };
  if (target.method === 'GET') {
    const withQuery = new URL(url);
    for (const [key, value] of Object.entries(body))
      if (value !== undefined) withQuery.searchParams.set(key, String(value));
    url = withQuery.toString();
  } else {
    const json = JSON.stringify(body);
    init.body = json;
    const headers = init.headers as Record<string, string>;
    headers['content-type'] = 'application/json';
    if (target.signingSecret) headers[SIGNATURE_HEADER] = signCallback(target.signingSecret, json);
  }
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, init);
    text = await response.text();
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new HttpError(504, SALES_MSG.partnerTimeout);
    throw badGateway(SALES_MSG.partnerUnreachable);
  }
  if (!response.ok) throw badGateway(SALES_MSG.partnerFailed(response.status));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badGateway(SALES_MSG.partnerUnreadable);
  }
  const parsed = partnerAnswer.safeParse(json);
  if (!parsed.success) throw badGateway(SALES_MSG.partnerUnreadable);
  const openingUrl = parsed.data.result.result.data;
  return { url: openingUrl, utmCode: utmCodeOf(openingUrl), merchantCode: parsed.data.result.merchantCode };
}
