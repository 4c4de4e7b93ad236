import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SALE_STATUSES } from '../../../shared/enums';
import {
  boughtProductSchema,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKeySchema,
  receiptQuerySchema,
  SALES_MSG,
} from '../../../shared/schemas/sales';
import { envelope, listEnvelope, openingLinkSchema, wireSaleSchema } from '../../../shared/wire';
import { badRequest, notFound } from '../../http/errors';
import { cappedMark, offsetOf, pagingQuery } from '../../http/paging';
import { idParam, optionalFilter, optionalUuid } from '../../http/params';
import { listReads } from '../../http/reader';
import { documentedOnly } from '../../http/schemas';
import { caller, guarded } from '../../http/session';
import { requestRecorder } from '../audit/index';
import { receiptFileName, receiptHtml, receiptPdf } from '../documents/index';
import { listSales, saleWithPostings } from './queries';
import { saleReceipt } from './receipt';
import { openingLinkOf, recordSaleOnce } from './service';

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

const tags = ['sales'];

export default async function salesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  app.post(
    '/bought_products/create',
    {
      // Under its key, the same sale again answers the first answer: it runs again after a failover.
      config: { idempotent: (request) => request.headers[IDEMPOTENCY_KEY_HEADER] !== undefined },
      ...guarded('sales', 'create', {
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
    },
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
    {
      ...guarded('sales', 'list', {
        tags,
        summary: 'Sales within the caller’s network, or one with its postings (_id)',
        querystring: listQuery,
        response: { 200: listEnvelope('boughtProducts', wireSaleSchema) },
      }),
      config: listReads(),
    },
    async (request) => {
      const { user } = caller(request);
      const q = request.query;
      if (q._id) {
        const sale = await saleWithPostings(db, user, q._id);
        if (!sale) throw notFound(SALES_MSG.saleNotFound);
        return { result: { boughtProducts: [sale], totalCounts: 1 } };
      }
      const { sales, total, capped } = await listSales(
        request.reader,
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
   * A sale's receipt for the customer (issue 43): a printable page (html, the default) or a PDF. Bounded by the
   * caller's network as the sale itself; a sale outside it answers the same 404 as no sale.
   */
  app.get(
    '/bought_products/receipt/:id',
    guarded('saleReceipts', 'read', {
      tags,
      summary:
        'A sale’s receipt: a printable HTML page (format=html, the default) or a PDF (format=pdf), in English or Hindi (lang=en|hi)',
      params: idParam,
      querystring: receiptQuerySchema,
    }),
    async (request, reply) => {
      const receipt = await saleReceipt(db, caller(request).user, request.params.id);
      if (request.query.format === 'pdf') {
        const bytes = await receiptPdf(receipt, request.query.lang);
        return reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="${receiptFileName(receipt, 'pdf')}"`)
          .send(Buffer.from(bytes) as never);
      }
      return (
        reply
          .type('text/html; charset=utf-8')
          .header('content-disposition', `inline; filename="${receiptFileName(receipt, 'html')}"`)
          // Text under a non-JSON type is sent as it is (no JSON serializer).
          .send(receiptHtml(receipt, request.query.lang) as never)
      );
    },
  );
}
