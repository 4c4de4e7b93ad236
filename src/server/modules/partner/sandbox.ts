import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SANDBOX_MSG } from '../../../shared/constants/sandbox';
import type { ProviderEvent } from '../../../shared/enums';
import { formatRupees, titleCase } from '../../../shared/format';
import { paiseToRupees } from '../../../shared/money';
import { CURRENT_ACCOUNT_TYPES, SAVING_ACCOUNT_TYPES } from '../../../shared/schemas/sales';
import { products, sandboxAccounts } from '../../db/schema';
import { badRequest, forbidden, HttpError, notFound, parseInput, unauthorized } from '../../http/errors';
import { escapeHtml } from '../../http/html';
import { assertCleanInput, inputGuard } from '../../http/input';
import {
  SIGNATURE_HEADER,
  type SignatureCheck,
  signCallback,
  verifySignature,
} from '../../security/signature';

/** The sandbox partner's API, where the gateway sends account openings in PROVIDER_MODE=sandbox. */
export const SANDBOX_API = '/sandbox/api';
/** The panel's public origin, passed by the gateway so the opening link points where the user is. */
export const SANDBOX_ORIGIN_HEADER = 'x-sandbox-public-origin';
const CALLBACK_PATH = '/api/v1/bought_products/callback';

/**
 * The opening page's path. The key comes first: the seed takes the utmCode as the text after the link's last
 * '=', so it must stay the last parameter.
 */
const openingPath = (key: string, utmCode: string) =>
  `/sandbox/open?key=${encodeURIComponent(key)}&utmCode=${encodeURIComponent(utmCode)}`;

const ACTIONS: Record<string, { event: ProviderEvent; status: string; from: string[] }> = {
  opened: { event: 'account.opened', status: 'OPENED', from: ['OPEN'] },
  abandon: { event: 'account.failed', status: 'ABANDONED', from: ['OPEN'] },
  reverse: { event: 'account.reversed', status: 'REVERSED', from: ['OPENED'] },
};

const openingBody = (call: 'saving_account' | 'current_account') =>
  z.object({
    accountType: z.enum(call === 'saving_account' ? SAVING_ACCOUNT_TYPES : CURRENT_ACCOUNT_TYPES),
    productId: z.uuid().optional(),
    customerId: z.uuid().optional(),
    /** The customer's name as Tierdesk knows it: the only name the page ever shows. */
    customerName: z.string().trim().min(1).max(200).optional(),
  });

/**
 * Per-address limits (counted in PostgreSQL across every server, as every rate limit of the app): the page, its
 * buttons (each makes a server-to-server callback), and unsigned or badly signed API calls. The server's own
 * signed calls are never counted: every sale of the network comes from its address.
 */
export const SANDBOX_LIMITS = {
  page: { max: 120, windowMinutes: 1 },
  action: { max: 30, windowMinutes: 1 },
  api: { max: 30, windowMinutes: 1 },
} as const;

const limit = (
  { max, windowMinutes }: { max: number; windowMinutes: number },
  more: Record<string, unknown> = {},
) => ({
  max,
  timeWindow: windowMinutes * 60_000,
  errorResponseBuilder: (_request: unknown, context: { ttl: number }) =>
    new HttpError(429, SANDBOX_MSG.tooMany(Math.max(1, Math.ceil(context.ttl / 60_000)))),
  ...more,
});

/** An opening's key: 128 random bits, base64url (no '=', so the link's utmCode stays the text after the last '='). */
const newKey = () => randomBytes(16).toString('base64url');
const hashOf = (key: string) => createHash('sha256').update(key, 'utf8').digest();
/** Compared against when there is no stored hash, so an unknown utmCode costs the same as a wrong key. */
const NO_HASH = Buffer.alloc(32);

/** Whether `key` is the opening's key: hashes compared in constant time; no stored hash matches nothing. */
function keyMatches(storedHash: string | null | undefined, key: string): boolean {
  const stored = storedHash && /^[0-9a-f]{64}$/.test(storedHash) ? Buffer.from(storedHash, 'hex') : undefined;
  const same = timingSafeEqual(hashOf(key), stored ?? NO_HASH);
  return same && stored !== undefined;
}

const keyField = z.string().max(200).optional();

const SIGNATURE_REFUSALS: Record<Exclude<SignatureCheck, 'ok'>, string> = {
  missing: SANDBOX_MSG.unsigned,
  invalid: SANDBOX_MSG.badSignature,
  expired: SANDBOX_MSG.staleSignature,
};

/**
 * The built-in partner (PROVIDER_MODE=sandbox): a stand-in for the account-opening bank that speaks to
 * Tierdesk over real HTTP in both directions. Tierdesk's gateway calls its API for a link; the link is this
 * page (no sign-in), showing the customer, product and utmCode, whose buttons make the sandbox send the
 * signed callback to Tierdesk's callback URL exactly as the real partner would. Plain HTML forms, no script.
 * It keeps its own records (sandbox_accounts) and learns outcomes of nothing but its own callbacks' answers.
 * Safe to leave on: its API answers only Tierdesk's signed calls, the page and its buttons act only for a
 * visitor holding the opening's key (in the link the API returned), it shows only the customer name Tierdesk
 * sent, and every part of it is rate-limited per address.
 */
/**
 * The sandbox page's look (a style element: the server's Content-Security-Policy allows styles, not scripts): a
 * card in a main landmark, readable on a phone, its buttons a finger's size (44 px tall) in both colour schemes.
 */
const SANDBOX_STYLE = `
:root { color-scheme: light dark; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
main { max-width: 40rem; margin: 1.5rem auto; padding: 1.5rem; border: 1px solid #a1a1aa; border-radius: 8px; }
h1 { margin: 0 0 0.5rem; font-size: 1.375rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.4rem 1rem; }
dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1rem; }
.actions form { margin: 0; }
button { min-height: 44px; padding: 0.5rem 1.25rem; font: inherit; font-weight: 600; border-radius: 6px;
  border: 1px solid #1d4ed8; background: #1d4ed8; color: #fff; cursor: pointer; }
button:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
@media (max-width: 40rem) { main { margin: 0; border: 0; border-radius: 0; } }
`;

export default async function sandboxPartner(
  app: FastifyInstance,
  opts: { webhookSecret: string; selfOrigin: () => string },
) {
  const { db } = app;
  // Outside /api/v1, so the input gate is registered here too: no text PostgreSQL refuses reaches it.
  await app.register(inputGuard);
  // The page's buttons post HTML forms (the opening's key).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  // The API answers only the server's own calls, signed as the callbacks are (signature.ts) over the raw bytes,
  // which are parsed only after the signature verifies. The check runs in the rate limit's allow-list (before
  // the handler), so a signed call is never counted and an unsigned one is.
  const signatureChecks = new WeakMap<FastifyRequest, SignatureCheck>();
  const checkSignature = (request: FastifyRequest) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const check = verifySignature(opts.webhookSecret, request.headers[SIGNATURE_HEADER], raw);
    signatureChecks.set(request, check);
    return check;
  };
  await app.register(async (api) => {
    api.removeContentTypeParser('application/json');
    api.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    );
    for (const call of ['saving_account', 'current_account'] as const) {
      api.post(
        `${SANDBOX_API}/payusprint/${call}`,
        {
          bodyLimit: 16_384,
          config: {
            access: 'public',
            rateLimit: limit(SANDBOX_LIMITS.api, {
              hook: 'preHandler',
              allowList: (request: FastifyRequest) => checkSignature(request) === 'ok',
            }),
          },
        },
        async (request) => {
          const check = signatureChecks.get(request) ?? checkSignature(request);
          if (check !== 'ok') throw unauthorized(SIGNATURE_REFUSALS[check]);
          let json: unknown;
          try {
            json = JSON.parse((request.body as Buffer).toString('utf8'));
          } catch {
            throw badRequest('Body must be valid JSON');
          }
          assertCleanInput(json, 'body');
          const input = parseInput(openingBody(call), json);
          const utmCode = `SBX${randomBytes(8).toString('hex').toUpperCase()}`;
          const merchantCode = `SANDBOX-${randomBytes(3).toString('hex').toUpperCase()}`;
          const key = newKey();
          await db.insert(sandboxAccounts).values({
            utmCode,
            merchantCode,
            accountType: input.accountType,
            productId: input.productId ?? null,
            customerId: input.customerId ?? null,
            customerName: input.customerName ?? null,
            keyHash: hashOf(key).toString('hex'),
          });
          const header = request.headers[SANDBOX_ORIGIN_HEADER];
          const origin =
            typeof header === 'string' && /^https?:\/\/[^/\s]+$/.test(header) ? header : opts.selfOrigin();
          return { result: { result: { data: `${origin}${openingPath(key, utmCode)}` }, merchantCode } };
        },
      );
    }
  });

  /**
   * The opening this link names, for a visitor holding its key: a missing key is refused before the database
   * is asked, and an unknown utmCode and a wrong key get the same 404, so the answer never tells whether a
   * utmCode exists.
   */
  const accountOf = async (utmCode: string, key: string | undefined) => {
    if (!key) throw forbidden(SANDBOX_MSG.keyMissing);
    const [row] = await db
      .select({
        account: sandboxAccounts,
        product: products.name,
        amountPaise: products.amountPaise,
      })
      .from(sandboxAccounts)
      .leftJoin(products, eq(products.id, sandboxAccounts.productId))
      .where(eq(sandboxAccounts.utmCode, utmCode))
      .limit(1);
    if (!keyMatches(row?.account.keyHash, key) || !row) throw notFound(SANDBOX_MSG.noSuchOpening);
    return row;
  };

  app.get(
    '/sandbox/open',
    { config: { access: 'public', rateLimit: limit(SANDBOX_LIMITS.page) } },
    async (request, reply) => {
      const { utmCode, key } = parseInput(
        z.object({ utmCode: z.string().min(1).max(200), key: keyField }),
        request.query,
      );
      const row = await accountOf(utmCode, key);
      const a = row.account;
      const buttons = Object.entries(ACTIONS)
        .filter(([, action]) => action.from.includes(a.status))
        .map(
          ([name]) =>
            `<form method="post" action="/sandbox/open/${encodeURIComponent(a.utmCode)}/${name}">` +
            `<input type="hidden" name="key" value="${escapeHtml(key)}">` +
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
<title>Sandbox partner: account opening</title>
<style>${SANDBOX_STYLE}</style></head>
<body>
<main>
<h1>Sandbox partner: account opening</h1>
<p>This page stands in for the partner bank. Choose what happened to the customer's account opening.</p>
<dl>
<dt>Customer</dt><dd>${escapeHtml(titleCase(a.customerName ?? 'Unknown customer'))}</dd>
<dt>Product</dt><dd>${escapeHtml(row.product ?? a.accountType)}</dd>
<dt>Amount</dt><dd>${escapeHtml(row.amountPaise === null ? '' : formatRupees(paiseToRupees(row.amountPaise)))}</dd>
<dt>Account type</dt><dd>${escapeHtml(a.accountType)}</dd>
<dt>utmCode</dt><dd><code>${escapeHtml(a.utmCode)}</code></dd>
<dt>Status</dt><dd id="status">${escapeHtml(a.status)}</dd>
</dl>
${outcome}
<div class="actions">${buttons}</div>
</main>
</body></html>`;
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    },
  );

  app.post(
    '/sandbox/open/:utmCode/:action',
    { config: { access: 'public', rateLimit: limit(SANDBOX_LIMITS.action) } },
    async (request, reply) => {
      const params = parseInput(
        z.object({ utmCode: z.string().min(1).max(200), action: z.enum(Object.keys(ACTIONS) as [string]) }),
        request.params,
      );
      // The page's forms carry the key in their body.
      const { key } = parseInput(z.object({ key: keyField }), request.body ?? {});
      const { account } = await accountOf(params.utmCode, key);
      const action = ACTIONS[params.action];
      if (!action.from.includes(account.status))
        throw badRequest(SANDBOX_MSG.notNow(account.status, params.action));
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
      return reply.redirect(openingPath(key as string, account.utmCode), 303);
    },
  );
}
