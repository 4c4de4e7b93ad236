import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { providerCallbackSchema, SALES_MSG } from '../../../shared/schemas/sales';
import { callbackAnswerSchema, envelope } from '../../../shared/wire';
import { badRequest, parseInput, unauthorized } from '../../http/errors';
import { assertCleanInput } from '../../http/input';
import { documentedOnly } from '../../http/schemas';
import { SIGNATURE_HEADER, verifySignature } from '../../security/signature';
import { auditRecorder, PARTNER } from '../audit/index';
import { applyProviderEvent, EventIdReused } from '../sales/index';

const SIGNATURE_REFUSALS = {
  missing: SALES_MSG.signatureMissing,
  invalid: SALES_MSG.signatureInvalid,
  expired: SALES_MSG.signatureExpired,
} as const;

/** Documented with the sales, whose state the partner's events change. */
const tags = ['sales'];

/**
 * The partner's side of a sale: its signed events (account opened, failed, reversed) arrive here, are
 * authenticated by the partner module, and are applied by the sales module (applyProviderEvent).
 */
export default async function partnerCallback(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

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
        // The same eventId answers as before and posts nothing again: it runs again after a failover.
        config: { access: 'public', xsrf: false, idempotent: true },
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
