import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SALE_STATUSES } from '../../../shared/enums';
import {
  boughtProductSchema,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKeySchema,
  providerCallbackSchema,
  SALES_MSG,
} from '../../../shared/schemas/sales';
import {
  callbackAnswerSchema,
  envelope,
  listEnvelope,
  openingLinkSchema,
  wireSaleSchema,
} from '../../../shared/wire';
import { badRequest, notFound, parseInput, unauthorized } from '../../http/errors';
import { assertCleanInput } from '../../http/input';
import { cappedMark, offsetOf, pagingQuery } from '../../http/paging';
import { idParam, optionalFilter, optionalUuid } from '../../http/params';
import { documentedOnly } from '../../http/schemas';
import { caller, guarded } from '../../http/session';
import { auditRecorder, PARTNER, requestRecorder } from '../audit/record';
import { SIGNATURE_HEADER, verifySignature } from '../partner/signature';
import { listSales, saleWithPostings } from './queries';
import { applyProviderEvent, EventIdReused, openingLinkOf, recordSaleOnce } from './service';

const listQuery = pagingQuery.and(
  z.object({
    _id: optionalUuid('Invalid id'),
    status: optionalFilter(
      z.enum(SALE_STATUSES, { error: `status must be one of ${SALE_STATUSES.join(', ')}` }),
    ),
    customerId: optionalUuid(SALES_MSG.invalidCustomer),
    productId: optionalUuid(SALES_MSG.invalidProduct),
    retailerId: optionalUuid(SALES_MSG.invalidUser),
  }),
);

const SIGNATURE_REFUSALS = {
  missing: SALES_MSG.signatureMissing,
  invalid: SALES_MSG.signatureInvalid,
  expired: SALES_MSG.signatureExpired,
} as const;

const tags = ['sales'];

export default async function salesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  app.post(
    '/bought_products/create',
    guarded('sales', 'create', {
      tags,
      summary: 'Record a sale for a utmCode the partner issued to the caller',
      body: boughtProductSchema,
      headers: documentedOnly(
        z.object({
          [IDEMPOTENCY_KEY_HEADER]: idempotencyKeySchema
            .optional()
            .describe(
              'Optional, 1 to 200 visible ASCII characters, one per sale the person means. The same key again with the same body answers the first answer (status and body) and records nothing; with another body, 409. Kept per caller.',
            ),
        }),
      ),
      response: { 200: envelope(wireSaleSchema) },
    }),
    async (request, reply) => {
      const header = request.headers[IDEMPOTENCY_KEY_HEADER];
      let key: string | undefined;
      if (header !== undefined) {
        const parsed = idempotencyKeySchema.safeParse(header);
        if (!parsed.success) throw badRequest(SALES_MSG.idempotencyKeyInvalid, 'Idempotency-Key');
        key = parsed.data;
      }
      const answer = await recordSaleOnce(
        db,
        caller(request).user,
        request.body,
        key,
        requestRecorder(request, 'sale.create', 'sale'),
      );
      return reply.status(answer.statusCode as 200).send(answer.body);
    },
  );

  /**
   * The partner's link of a PENDING sale, to reopen it: for the person who recorded the sale, or staff. Anyone
   * else gets the same 404 as for no sale.
   */
  app.get(
    '/bought_products/opening/:id',
    guarded('sales', 'list', {
      tags,
      summary: 'The partner’s account-opening link of a pending sale, to reopen it',
      params: idParam,
      response: { 200: envelope(openingLinkSchema) },
    }),
    async (request) => ({
      result: { url: await openingLinkOf(db, caller(request).user, request.params.id) },
    }),
  );

  /** A page of sales, or one sale (`_id`) with its postings. Scoped by the caller's network. */
  app.get(
    '/bought_products/fetch',
    guarded('sales', 'list', {
      tags,
      summary: 'Sales within the caller’s network, or one with its postings (_id)',
      querystring: listQuery,
      response: { 200: listEnvelope('boughtProducts', wireSaleSchema) },
    }),
    async (request) => {
      const { user } = caller(request);
      const q = request.query;
      if (q._id) {
        const sale = await saleWithPostings(db, user, q._id);
        if (!sale) throw notFound(SALES_MSG.saleNotFound);
        return { result: { boughtProducts: [sale], totalCounts: 1 } };
      }
      const { sales, total, capped } = await listSales(
        db,
        user,
        {
          status: q.status,
          customerId: q.customerId,
          productId: q.productId,
          retailerId: q.retailerId,
          searchText: q.searchText,
        },
        { limit: q.limit, offset: offsetOf(q) },
      );
      return { result: { boughtProducts: sales, totalCounts: total, ...cappedMark(capped) } };
    },
  );

  /**
   * The partner's signed callback: server to server, so no session and no XSRF token; the HMAC signature over
   * the raw bytes is the only authentication. The body is parsed only after the signature verifies.
   */
  await app.register(async (callback) => {
    callback.removeContentTypeParser('application/json');
    callback.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    );
    callback.post(
      '/bought_products/callback',
      {
        config: { access: 'public', xsrf: false },
        schema: {
          tags,
          summary: 'The partner’s signed event (account opened, failed, reversed)',
          description:
            'the partner: no session, no XSRF; X-Provider-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">, checked before the body is parsed',
          body: documentedOnly(providerCallbackSchema),
          headers: documentedOnly(z.object({ 'x-provider-signature': z.string() })),
          response: { 200: envelope(callbackAnswerSchema) },
        },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const check = verifySignature(app.webhookSecret, request.headers[SIGNATURE_HEADER], raw);
        if (check !== 'ok') throw unauthorized(SIGNATURE_REFUSALS[check]);
        let json: unknown;
        try {
          json = JSON.parse(raw.toString('utf8'));
        } catch {
          throw badRequest('Body must be valid JSON');
        }
        assertCleanInput(json, 'body');
        const event = parseInput(providerCallbackSchema, json);
        const { answer, replay } = await applyProviderEvent(
          db,
          event,
          app.ledgerKey,
          auditRecorder(PARTNER, request.ip, 'provider.event', 'sale'),
        ).catch((error) => {
          if (error instanceof EventIdReused)
            request.log.warn(
              {
                eventId: event.eventId,
                first: error.first,
                now: { event: event.event, utmCode: event.utmCode },
              },
              'partner eventId reused for a different event: refused',
            );
          throw error;
        });
        return { result: answer, message: replay ? SALES_MSG.eventReplayed : SALES_MSG.eventRecorded };
      },
    );
  });
}
