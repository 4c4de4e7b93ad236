import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { signCallback } from '../../src/server/security/signature';
import { call, WEBHOOK_SECRET, XSRF } from './helpers';

/** Opens an account through `payusprint/*` and records the sale, as the panel's Proceed does. */
export async function sell(
  app: FastifyInstance,
  token: string,
  sale: { customerId: string; productId: string; accountType?: string },
) {
  const products = await call(app, 'GET', 'products/fetch', { token, query: { productId: sale.productId } });
  const accountType = sale.accountType ?? products.body.result.products[0].urlParams.data;
  const path = accountType === 'PAYUSPRINT-SAVING' ? 'saving_account' : 'current_account';
  const opened = await call(app, 'POST', `payusprint/${path}`, {
    token,
    body: { accountType, productId: sale.productId, customerId: sale.customerId },
  });
  if (opened.status !== 200) throw new Error(`payusprint ${opened.status} ${JSON.stringify(opened.body)}`);
  const url: string = opened.body.result.result.data;
  const utmCode = url.slice(url.lastIndexOf('=') + 1);
  // The sandbox partner's link carries the opening's key, which its page and buttons ask for.
  const key = new URL(url).searchParams.get('key') ?? '';
  const merchantCode: string = opened.body.result.merchantCode;
  const recorded = await call(app, 'POST', 'bought_products/create', {
    token,
    body: { customerId: sale.customerId, retailerId: null, productId: sale.productId, utmCode, merchantCode },
  });
  return { url, utmCode, key, merchantCode, recorded };
}

/** Clicks a button of the sandbox partner's page: posts its form (the opening's key) as a browser would. */
export const clickSandbox = (
  app: FastifyInstance,
  sale: { utmCode: string; key: string },
  action: 'opened' | 'abandon' | 'reverse',
) =>
  app.inject({
    method: 'POST',
    url: `/sandbox/open/${sale.utmCode}/${action}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ key: sale.key, go: '1' }).toString(),
  });

/** Delivers a partner callback with a valid signature (or the given header), as raw JSON bytes. */
export async function deliver(
  app: FastifyInstance,
  event: { event: string; utmCode: string; merchantCode: string; eventId?: string },
  opts: { signature?: string | null; secret?: string; now?: number; raw?: string } = {},
) {
  const raw = opts.raw ?? JSON.stringify({ eventId: event.eventId ?? randomUUID(), ...event });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const signature =
    opts.signature === undefined
      ? signCallback(opts.secret ?? WEBHOOK_SECRET, raw, opts.now)
      : opts.signature;
  if (signature !== null) headers['x-provider-signature'] = signature;
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/bought_products/callback',
    headers,
    payload: raw,
  });
  return { status: response.statusCode, body: response.json() };
}

/** The demo network's ids by mobile number. */
export async function idsByMobile(app: FastifyInstance, token: string) {
  const ids: Record<string, string> = {};
  for (const type of [1, 2, 3, 4]) {
    const res = await call(app, 'GET', 'account/fetch', {
      token,
      query: { type: String(type), limit: '100' },
    });
    for (const u of res.body.result.users) ids[u.mobile.number] = u._id;
  }
  return ids;
}

/** The id of the demo catalogue's product whose name matches `name` (the Saving account by default). */
export async function productIdOf(app: FastifyInstance, token: string, name = 'Saving'): Promise<string> {
  const list = await call(app, 'GET', 'products/fetch', { token, query: { searchText: name } });
  return list.body.result.products[0]._id;
}

export { XSRF };
