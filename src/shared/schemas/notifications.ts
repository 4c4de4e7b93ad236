import { z } from 'zod';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENTS,
  NOTIFICATION_LANGUAGES,
  NOTIFICATION_STATUSES,
  NOTIFY_MSG,
  WEBHOOK_EVENTS,
} from '../constants/notifications';
import { isoTime } from './dates';

export * from '../constants/notifications';

/** An endpoint's URL: absolute http(s), at most 2,000 characters. */
const webhookUrl = z
  .string({ error: NOTIFY_MSG.webhookUrl })
  .trim()
  .max(2000, { error: NOTIFY_MSG.webhookUrl })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
      } catch {
        return false;
      }
    },
    { error: NOTIFY_MSG.webhookUrl },
  );

const webhookEvents = z
  .array(z.enum(WEBHOOK_EVENTS, { error: NOTIFY_MSG.webhookEvents }), { error: NOTIFY_MSG.webhookEvents })
  .min(1, { error: NOTIFY_MSG.webhookEvents })
  .transform((events) => [...new Set(events)]);

/** `webhooks/create` and `webhooks/update/:id`. */
export const webhookInputSchema = z.object({ url: webhookUrl, events: webhookEvents });
export type WebhookInput = z.infer<typeof webhookInputSchema>;

export const wireWebhookSchema = z.strictObject({
  _id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  createdAt: isoTime,
});
export type WireWebhook = z.infer<typeof wireWebhookSchema>;

/** `webhooks/create`'s answer: the endpoint and its secret, shown this once. */
export const createdWebhookSchema = wireWebhookSchema.extend({ secret: z.string() });

/** One delivery as the Notifications screen shows it: the recipient masked. */
export const wireNotificationSchema = z.strictObject({
  _id: z.string(),
  event: z.enum(NOTIFICATION_EVENTS),
  channel: z.enum(NOTIFICATION_CHANNELS),
  recipient: z.string(),
  language: z.enum(NOTIFICATION_LANGUAGES),
  status: z.enum(NOTIFICATION_STATUSES),
  attempts: z.number(),
  lastError: z.string().nullable(),
  nextAttemptAt: isoTime.nullable(),
  createdAt: isoTime,
  sentAt: isoTime.nullable(),
});
export type WireNotification = z.infer<typeof wireNotificationSchema>;

/** A person's notification choices: the language its messages are written in, and the channels it takes. */
export const notificationPreferencesSchema = z.strictObject({
  language: z.enum(NOTIFICATION_LANGUAGES, { error: NOTIFY_MSG.invalidLanguage }),
  email: z.boolean(),
  sms: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** `notifications/preferences`: any of the three; the others stay. */
export const preferencesInputSchema = notificationPreferencesSchema.partial();
