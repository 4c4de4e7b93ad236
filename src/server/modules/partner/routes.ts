import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PROVIDER_MODES } from '../../../shared/constants/sandbox';
import {
  accountOpeningSchema,
  type PartnerCall,
  partnerCallFor,
  SALES_MSG,
} from '../../../shared/schemas/sales';
import { accountOpeningResultSchema, envelope } from '../../../shared/wire';
import { rowView } from '../../db/named';
import { accountOpenings } from '../../db/schema';
import { badRequest, HttpError } from '../../http/errors';
import { caller, guarded } from '../../http/session';
import { runCommand } from '../audit/index';
import { openingBinding, productById, sellableCustomer } from '../sales/index';
import { type PartnerTarget, requestAccountOpening } from './gateway';
import { SANDBOX_API, SANDBOX_ORIGIN_HEADER } from './sandbox';

/** The address this server listens on, for the built-in sandbox partner's server-to-server calls. */
export function selfOrigin(app: FastifyInstance): string {
  if (app.addresses().length === 0) throw new Error('The sandbox partner needs the server to be listening');
  return app.listeningOrigin;
}

/** The origin people reach the panel at: PUBLIC_URL, or the one this request came to. */
export const publicOrigin = (app: FastifyInstance, request: FastifyRequest) =>
  app.config.publicUrl?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;

/**
 * Seed section 7, `payusprint/saving_account` and `payusprint/current_account`: asks the partner for an
 * account-opening link and answers the partner's shape. The panel names the product (required) and customer; the
 * product's account type must belong to the call. Every link obtained is remembered (account_openings) with the
 * product's amount and percentages then, so a sale can later be recorded only for a utmCode the partner really
 * issued to this caller, only as that product, split as it was.
 */
const tags = ['sales'];

export default async function partnerRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app;

  const targetFor = (
    call: PartnerCall,
    product: { url: string; reqType: string } | undefined,
    request: FastifyRequest,
  ): PartnerTarget => {
    if (config.providerMode === 'sandbox')
      return {
        url: `${selfOrigin(app)}${SANDBOX_API}/payusprint/${call}`,
        method: 'POST',
        headers: { [SANDBOX_ORIGIN_HEADER]: publicOrigin(app, request) },
        signingSecret: app.webhookSecret,
      };
    if (product) return { url: product.url, method: product.reqType === 'GET' ? 'GET' : 'POST' };
    if (config.providerBaseUrl)
      return { url: `${config.providerBaseUrl.replace(/\/+$/, '')}/payusprint/${call}`, method: 'POST' };
    throw new HttpError(502, SALES_MSG.partnerNotConfigured);
  };

  // Public, as the sign-in page is: whether sales are simulated is no secret (the sandbox's page is public too).
  app.get(
    '/partner/mode',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          'Which partner opens the accounts: the panel shows a banner on every screen while it is the sandbox',
        description: 'public',
        response: { 200: envelope(z.strictObject({ providerMode: z.enum(PROVIDER_MODES) })) },
      },
    },
    async () => ({ result: { providerMode: config.providerMode } }),
  );

  for (const call of ['saving_account', 'current_account'] as const) {
    app.post(
      `/payusprint/${call}`,
      guarded('sales', 'create', {
        tags,
        summary: `Ask the partner for an account-opening link (${call === 'saving_account' ? 'PAYUSPRINT-SAVING' : 'PAYUSPRINT-CURRENT, PAYUSPRINT-SOLE-PROPRIETOR'})`,
        body: accountOpeningSchema(call),
        response: { 200: envelope(accountOpeningResultSchema) },
      }),
      async (request) => {
        const { user } = caller(request);
        const input = request.body;
        // The opening is bound to this product: its account type must be the call's (and the one asked for).
        const product = await productById(db, input.productId);
        const accountType = input.accountType ?? product.urlData;
        if (partnerCallFor(product.urlData as never) !== call || product.urlData !== accountType)
          throw badRequest(SALES_MSG.productAccountType(product.urlData), 'accountType');
        const customer = input.customerId ? await sellableCustomer(db, user, input.customerId) : undefined;

        // The real partner learns only the account type; the sandbox also shows who and what on its page (the
        // customer's name as sent here: it looks no one up).
        const body =
          config.providerMode === 'sandbox'
            ? { accountType, productId: product.id, customerId: customer?.id, customerName: customer?.name }
            : { accountType };
        const opening = await requestAccountOpening(
          targetFor(call, product, request),
          body,
          config.providerTimeoutMs,
        );
        // Audited after the partner answered (never hold a transaction across its HTTP call), in the transaction
        // that records the opening.
        await runCommand(
          request,
          { action: 'accountOpening.create', entity: 'accountOpening' },
          async (tx) => {
            const [recorded] = await tx
              .insert(accountOpenings)
              .values({
                utmCode: opening.utmCode,
                merchantCode: opening.merchantCode,
                accountType,
                ...openingBinding(product),
                customerId: customer?.id ?? null,
                requestedBy: user.id,
                url: opening.url,
              })
              .onConflictDoNothing()
              .returning();
            if (!recorded) throw new HttpError(502, SALES_MSG.partnerReusedCode);
            return {
              entityId: recorded.utmCode,
              after: rowView(recorded, ['requestedBy']),
              result: recorded,
            };
          },
        );
        return { result: { result: { data: opening.url }, merchantCode: opening.merchantCode } };
      },
    );
  }
}
