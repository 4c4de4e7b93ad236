import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ProviderEvent } from '../../../shared/enums';
import { formatRupees, titleCase } from '../../../shared/format';
import { paiseToRupees } from '../../../shared/money';
import { CURRENT_ACCOUNT_TYPES, SAVING_ACCOUNT_TYPES } from '../../../shared/schemas/sales';
import { products, sandboxAccounts, users } from '../../db/schema';
import { badRequest, notFound, parseInput } from '../../http/errors';
import { inputGuard } from '../../http/input';
import { signCallback } from './signature';

/** The sandbox partner's API, where the gateway sends account openings in PROVIDER_MODE=sandbox. */
export const SANDBOX_API = '/sandbox/api';
/** The panel's public origin, passed by the gateway so the opening link points where the user is. */
export const SANDBOX_ORIGIN_HEADER = 'x-sandbox-public-origin';
const CALLBACK_PATH = '/api/v1/bought_products/callback';

const ACTIONS: Record<string, { event: ProviderEvent; status: string; from: string[] }> = {
  opened: { event: 'account.opened', status: 'OPENED', from: ['OPEN'] },
  abandon: { event: 'account.failed', status: 'ABANDONED', from: ['OPEN'] },
  reverse: { event: 'account.reversed', status: 'REVERSED', from: ['OPENED'] },
};

const escapeHtml = (value: unknown) =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

const openingBody = (call: 'saving_account' | 'current_account') =>
  z.object({
    accountType: z.enum(call === 'saving_account' ? SAVING_ACCOUNT_TYPES : CURRENT_ACCOUNT_TYPES),
    productId: z.uuid().optional(),
    customerId: z.uuid().optional(),
  });

/**
 * The built-in partner (PROVIDER_MODE=sandbox): a stand-in for the account-opening bank that speaks to
 * Tierdesk over real HTTP in both directions. Tierdesk's gateway calls its API for a link; the link is this
 * page (no sign-in), showing the customer, product and utmCode, whose buttons make the sandbox send the
 * signed callback to Tierdesk's callback URL exactly as the real partner would. Plain HTML forms, no script.
 * It keeps its own records (sandbox_accounts) and learns outcomes of nothing but its own callbacks' answers.
 */
export default async function sandboxPartner(
  app: FastifyInstance,
  opts: { webhookSecret: string; selfOrigin: () => string },
) {
  const { db } = app;
  // Outside /api/v1, so the input gate is registered here too: no text PostgreSQL refuses reaches it.
  await app.register(inputGuard);
  // The page's buttons post empty HTML forms.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  for (const call of ['saving_account', 'current_account'] as const) {
    app.post(`${SANDBOX_API}/payusprint/${call}`, { config: { access: 'public' } }, async (request) => {
      const input = parseInput(openingBody(call), request.body);
      const utmCode = `SBX${randomBytes(8).toString('hex').toUpperCase()}`;
      const merchantCode = `SANDBOX-${randomBytes(3).toString('hex').toUpperCase()}`;
      await db.insert(sandboxAccounts).values({
        utmCode,
        merchantCode,
        accountType: input.accountType,
        productId: input.productId ?? null,
        customerId: input.customerId ?? null,
      });
      const header = request.headers[SANDBOX_ORIGIN_HEADER];
      const origin =
        typeof header === 'string' && /^https?:\/\/[^/\s]+$/.test(header) ? header : opts.selfOrigin();
      return { result: { result: { data: `${origin}/sandbox/open?utmCode=${utmCode}` }, merchantCode } };
    });
  }

  const accountOf = async (utmCode: string) => {
    const [row] = await db
      .select({
        account: sandboxAccounts,
        customer: users.name,
        product: products.name,
        amountPaise: products.amountPaise,
      })
      .from(sandboxAccounts)
      .leftJoin(users, eq(users.id, sandboxAccounts.customerId))
      .leftJoin(products, eq(products.id, sandboxAccounts.productId))
      .where(eq(sandboxAccounts.utmCode, utmCode))
      .limit(1);
    if (!row) throw notFound('No such account opening in the sandbox');
    return row;
  };

  app.get('/sandbox/open', { config: { access: 'public' } }, async (request, reply) => {
    const { utmCode } = parseInput(z.object({ utmCode: z.string().min(1).max(200) }), request.query);
    const row = await accountOf(utmCode);
    const a = row.account;
    const buttons = Object.entries(ACTIONS)
      .filter(([, action]) => action.from.includes(a.status))
      .map(
        ([name]) =>
          `<form method="post" action="/sandbox/open/${encodeURIComponent(a.utmCode)}/${name}">` +
          `<button type="submit" name="go" value="1">${
            { opened: 'Account opened', abandon: 'Abandon', reverse: 'Reverse (chargeback)' }[name]
          }</button></form>`,
      )
      .join('');
    const outcome =
      a.callbackStatus === null
        ? ''
        : `<p role="status">Tierdesk answered the callback with HTTP ${a.callbackStatus}.</p>`;
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox partner: account opening</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem">
<h1>Sandbox partner: account opening</h1>
<p>This page stands in for the partner bank. Choose what happened to the customer's account opening.</p>
<dl>
<dt>Customer</dt><dd>${escapeHtml(titleCase(row.customer ?? 'Unknown customer'))}</dd>
<dt>Product</dt><dd>${escapeHtml(row.product ?? a.accountType)}</dd>
<dt>Amount</dt><dd>${escapeHtml(row.amountPaise === null ? '' : formatRupees(paiseToRupees(row.amountPaise)))}</dd>
<dt>Account type</dt><dd>${escapeHtml(a.accountType)}</dd>
<dt>utmCode</dt><dd><code>${escapeHtml(a.utmCode)}</code></dd>
<dt>Status</dt><dd id="status">${escapeHtml(a.status)}</dd>
</dl>
${outcome}
${buttons}
</body></html>`;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  });

  app.post('/sandbox/open/:utmCode/:action', { config: { access: 'public' } }, async (request, reply) => {
    const params = parseInput(
      z.object({ utmCode: z.string().min(1).max(200), action: z.enum(Object.keys(ACTIONS) as [string]) }),
      request.params,
    );
    const { account } = await accountOf(params.utmCode);
    const action = ACTIONS[params.action];
    if (!action.from.includes(account.status))
      throw badRequest(`The account is ${account.status}: it cannot be ${params.action} now`);
    const body = JSON.stringify({
      eventId: randomUUID(),
      event: action.event,
      utmCode: account.utmCode,
      merchantCode: account.merchantCode,
    });
    let status = 0;
    try {
      const response = await fetch(`${opts.selfOrigin()}${CALLBACK_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-provider-signature': signCallback(opts.webhookSecret, body),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      status = response.status;
      await response.arrayBuffer();
    } catch (error) {
      request.log.warn({ err: error }, 'sandbox callback failed');
    }
    await db
      .update(sandboxAccounts)
      .set({ callbackStatus: status, ...(status >= 200 && status < 300 ? { status: action.status } : {}) })
      .where(eq(sandboxAccounts.utmCode, account.utmCode));
    return reply.redirect(`/sandbox/open?utmCode=${encodeURIComponent(account.utmCode)}`, 303);
  });
}
