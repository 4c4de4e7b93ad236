import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { maskEmail, maskMobile } from '../../../shared/identity';
import {
  createdWebhookSchema,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_STATUSES,
  NOTIFY_MSG,
  notificationPreferencesSchema,
  preferencesInputSchema,
  type WireNotification,
  type WireWebhook,
  webhookInputSchema,
  wireNotificationSchema,
  wireWebhookSchema,
} from '../../../shared/schemas/notifications';
import { envelope, listEnvelope } from '../../../shared/wire';
import { notifications, users, webhookEndpoints } from '../../db/schema';
import { conflict, notFound } from '../../http/errors';
import { offsetOf, pagingQuery } from '../../http/paging';
import { idParam, optionalFilter } from '../../http/params';
import { caller, guarded } from '../../http/session';
import { runCommand } from '../audit/index';
import { retryNow } from './runner';

const tags = ['notifications'];

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type NotificationRow = typeof notifications.$inferSelect;

const toWireWebhook = (row: EndpointRow): WireWebhook => ({
  _id: row.id,
  url: row.url,
  events: row.events as WireWebhook['events'],
  createdAt: row.createdAt.toISOString(),
});

/** The recipient as the screen shows it: an address or a mobile number masked, a URL's origin and path. */
function maskedRecipient(row: Pick<NotificationRow, 'channel' | 'recipient'>) {
  if (row.channel === 'EMAIL') return maskEmail(row.recipient);
  if (row.channel === 'SMS') return maskMobile(row.recipient);
  try {
    const url = new URL(row.recipient);
    return `${url.origin}${url.pathname}`;
  } catch {
    return row.recipient;
  }
}

const toWireNotification = (row: NotificationRow): WireNotification => ({
  _id: row.id,
  event: row.event as WireNotification['event'],
  channel: row.channel as WireNotification['channel'],
  recipient: maskedRecipient(row),
  language: row.language as WireNotification['language'],
  status: row.status as WireNotification['status'],
  attempts: row.attempts,
  lastError: row.lastError,
  nextAttemptAt: row.nextAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  sentAt: row.sentAt?.toISOString() ?? null,
});

const notificationsQuery = pagingQuery.and(
  z.object({
    status: optionalFilter(z.enum(NOTIFICATION_STATUSES, { error: NOTIFY_MSG.invalidStatus })),
    channel: optionalFilter(z.enum(NOTIFICATION_CHANNELS, { error: NOTIFY_MSG.invalidChannel })),
  }),
);

/** An endpoint's signing secret: 32 random bytes, hex, prefixed so it is recognised when found in a file. */
const newSecret = () => `whsec_${randomBytes(32).toString('hex')}`;

/**
 * Issue 55: an admin's webhook endpoints and deliveries, and anyone's own notification choices (language, e-mail,
 * SMS) for the Account page.
 */
export default async function notificationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  app.post(
    '/webhooks/create',
    guarded('webhooks', 'create', {
      tags,
      summary:
        'Register an integrator’s endpoint and the events it wants; answers its signing secret, this once',
      body: webhookInputSchema,
      response: { 200: envelope(createdWebhookSchema) },
    }),
    async (request) => {
      const { user } = caller(request);
      const secret = newSecret();
      const result = await runCommand(
        request,
        { action: 'webhook.create', entity: 'webhook' },
        async (tx) => {
          const [row] = await tx
            .insert(webhookEndpoints)
            .values({ url: request.body.url, events: request.body.events, secret, createdBy: user.id })
            .returning();
          return {
            entityId: row.id,
            after: { url: row.url, events: row.events },
            result: { ...toWireWebhook(row), secret },
          };
        },
      );
      return { result, message: NOTIFY_MSG.webhookCreated };
    },
  );

  app.get(
    '/webhooks/fetch',
    guarded('webhooks', 'list', {
      tags,
      summary: 'The registered webhook endpoints, newest first (never their secrets)',
      response: { 200: listEnvelope('webhooks', wireWebhookSchema) },
    }),
    async () => {
      const rows = await db
        .select()
        .from(webhookEndpoints)
        .where(isNull(webhookEndpoints.deletedAt))
        .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
      return { result: { webhooks: rows.map(toWireWebhook), totalCounts: rows.length } };
    },
  );

  app.post(
    '/webhooks/update/:id',
    guarded('webhooks', 'edit', {
      tags,
      summary: 'Change an endpoint’s URL and events (its secret stays)',
      params: idParam,
      body: webhookInputSchema,
      response: { 200: envelope(wireWebhookSchema) },
    }),
    async (request) => {
      const result = await runCommand(
        request,
        { action: 'webhook.update', entity: 'webhook' },
        async (tx) => {
          const live = and(eq(webhookEndpoints.id, request.params.id), isNull(webhookEndpoints.deletedAt));
          const [before] = await tx.select().from(webhookEndpoints).where(live).for('update');
          if (!before) throw notFound(NOTIFY_MSG.webhookNotFound);
          const [row] = await tx
            .update(webhookEndpoints)
            .set({ url: request.body.url, events: request.body.events })
            .where(live)
            .returning();
          return {
            entityId: row.id,
            before: { url: before.url, events: before.events },
            after: { url: row.url, events: row.events },
            result: toWireWebhook(row),
          };
        },
      );
      return { result, message: NOTIFY_MSG.webhookUpdated };
    },
  );

  app.post(
    '/webhooks/delete/:id',
    guarded('webhooks', 'edit', {
      tags,
      summary: 'Delete an endpoint: it gets nothing more, and its deliveries still waiting end FAILED',
      params: idParam,
      response: { 200: envelope(z.literal(true)) },
    }),
    async (request) => {
      await runCommand(request, { action: 'webhook.delete', entity: 'webhook' }, async (tx) => {
        const [row] = await tx
          .update(webhookEndpoints)
          .set({ deletedAt: new Date() })
          .where(and(eq(webhookEndpoints.id, request.params.id), isNull(webhookEndpoints.deletedAt)))
          .returning({ id: webhookEndpoints.id, url: webhookEndpoints.url });
        if (!row) throw notFound(NOTIFY_MSG.webhookNotFound);
        await tx
          .update(notifications)
          .set({ status: 'FAILED', nextAt: null, lastError: NOTIFY_MSG.endpointDeleted })
          .where(and(eq(notifications.endpointId, row.id), eq(notifications.status, 'PENDING')));
        return { entityId: row.id, before: { url: row.url }, result: true as const };
      });
      return { result: true as const, message: NOTIFY_MSG.webhookDeleted };
    },
  );

  app.get(
    '/notifications/fetch',
    guarded('notifications', 'list', {
      tags,
      summary:
        'Every delivery (e-mail, SMS, webhook), newest first, with its recipient masked, status, attempts and last error; `status` and `channel` filter',
      querystring: notificationsQuery,
      response: { 200: listEnvelope('notifications', wireNotificationSchema) },
    }),
    async (request) => {
      const q = request.query;
      const where = and(
        q.status ? eq(notifications.status, q.status) : undefined,
        q.channel ? eq(notifications.channel, q.channel) : undefined,
      );
      const [rows, [{ total }]] = await Promise.all([
        db
          .select()
          .from(notifications)
          .where(where)
          .orderBy(desc(notifications.createdAt), desc(notifications.id))
          .limit(q.limit)
          .offset(offsetOf(q)),
        db.select({ total: sql<number>`count(*)::int` }).from(notifications).where(where),
      ]);
      return { result: { notifications: rows.map(toWireNotification), totalCounts: total } };
    },
  );

  app.post(
    '/notifications/retry/:id',
    guarded('notifications', 'edit', {
      tags,
      summary: 'Retry now: a delivery not yet sent (waiting or failed) is tried again at once',
      params: idParam,
      response: { 200: envelope(z.literal(true)) },
    }),
    async (request) => {
      await runCommand(request, { action: 'notification.retry', entity: 'notification' }, async (tx) => {
        const outcome = await retryNow(tx, request.params.id);
        if (outcome === 'missing') throw notFound(NOTIFY_MSG.notificationNotFound);
        if (outcome === 'sent') throw conflict(NOTIFY_MSG.alreadySent);
        return { entityId: request.params.id, result: true };
      });
      return { result: true as const, message: NOTIFY_MSG.retryQueued };
    },
  );

  const preferencesOf = async (userId: string) => {
    const [row] = await db
      .select({ language: users.language, email: users.notifyEmail, sms: users.notifySms })
      .from(users)
      .where(eq(users.id, userId));
    return notificationPreferencesSchema.parse(row);
  };

  app.get(
    '/notifications/preferences',
    {
      schema: {
        tags,
        summary: 'One’s own notification choices: the language they are written in, e-mail and SMS',
        description: 'private',
        response: { 200: envelope(notificationPreferencesSchema) },
      },
    },
    async (request) => ({ result: await preferencesOf(caller(request).user.id) }),
  );

  app.post(
    '/notifications/preferences',
    {
      schema: {
        tags,
        summary:
          'Change one’s own notification choices (any of language, email, sms); the panel sends its language when one is chosen',
        description: 'private',
        body: preferencesInputSchema,
        response: { 200: envelope(notificationPreferencesSchema) },
      },
    },
    async (request) => {
      const { user } = caller(request);
      // No body at all changes nothing, as an empty one does.
      const { language, email, sms } = request.body ?? {};
      const change = {
        ...(language !== undefined ? { language } : {}),
        ...(email !== undefined ? { notifyEmail: email } : {}),
        ...(sms !== undefined ? { notifySms: sms } : {}),
      };
      if (Object.keys(change).length > 0)
        await runCommand(request, { action: 'user.preferences', entity: 'user' }, async (tx) => {
          await tx.update(users).set(change).where(eq(users.id, user.id));
          return { entityId: user.id, after: change, result: true };
        });
      return { result: await preferencesOf(user.id), message: NOTIFY_MSG.preferencesSaved };
    },
  );
}
