// Notifications (issue 55): the outbox's channels and states, the webhook events, and their messages. Without zod.

/** How a notification travels. */
export const NOTIFICATION_CHANNELS = ['EMAIL', 'SMS', 'WEBHOOK'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** PENDING: to send (again); SENT: delivered; FAILED: still undelivered a day after it was written. */
export const NOTIFICATION_STATUSES = ['PENDING', 'SENT', 'FAILED'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** The events an integrator's webhook endpoint may subscribe to. */
export const WEBHOOK_EVENTS = [
  'sale.confirmed',
  'sale.failed',
  'sale.reversed',
  'payout.paid',
  'approval.decided',
  'user.created',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Every event the outbox carries: the webhook events and the ones only people are told of. */
export const NOTIFICATION_EVENTS = [
  ...WEBHOOK_EVENTS,
  'approval.waiting',
  'import.finished',
  'reconcile.break',
  'settlement',
  'statement.ready',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** The languages a person's notifications are written in. */
export const NOTIFICATION_LANGUAGES = ['en', 'hi'] as const;
export type NotificationLanguage = (typeof NOTIFICATION_LANGUAGES)[number];

export const NOTIFY_MSG = {
  webhookCreated: 'Webhook endpoint registered. Copy its secret now: it is shown only once',
  webhookUpdated: 'Webhook endpoint updated',
  webhookDeleted: 'Webhook endpoint deleted',
  webhookNotFound: 'Webhook endpoint not found',
  webhookUrl: 'The URL must be an absolute http:// or https:// address',
  webhookEvents: `Choose at least one event: ${WEBHOOK_EVENTS.join(', ')}`,
  notificationNotFound: 'Notification not found',
  retryQueued: 'The delivery will be tried again now',
  alreadySent: 'This notification was delivered already',
  preferencesSaved: 'Notification choices saved',
  invalidLanguage: 'The language must be en or hi',
  invalidStatus: `status must be one of ${NOTIFICATION_STATUSES.join(', ')}`,
  invalidChannel: `channel must be one of ${NOTIFICATION_CHANNELS.join(', ')}`,
  /** The last error of a delivery to an endpoint deleted since. */
  endpointDeleted: 'The webhook endpoint was deleted',
} as const;
