import { and, inArray, isNull, sql } from 'drizzle-orm';
import {
  type NotificationEvent,
  type NotificationLanguage,
  WEBHOOK_EVENTS,
  type WebhookEvent,
} from '../../../shared/constants/notifications';
import { TIER_TYPES, UserType } from '../../../shared/enums';
import type { Tx } from '../../db/open';
import { notifications, users, webhookEndpoints } from '../../db/schema';
import { MAIL_AUDIENCE, SMS_EVENTS, type TemplateData } from './templates';

/** One person to tell, and what its message says beyond the event's common data (its own commission). */
export interface Recipient {
  userId: string;
  data?: TemplateData;
}

export interface Notice {
  /** The people to tell: each by e-mail and SMS as the event, its type and its choices say. */
  to?: Recipient[];
  /** What every message of the event says. */
  data?: TemplateData;
  /** The webhook body's `data`, for the endpoints subscribed to the event (webhook events only). */
  webhook?: TemplateData;
}

const STAFF: readonly number[] = [UserType.ADMIN, UserType.EMPLOYEE];

const isWebhookEvent = (event: NotificationEvent): event is WebhookEvent =>
  (WEBHOOK_EVENTS as readonly string[]).includes(event);

type Row = typeof notifications.$inferInsert;

/**
 * Writes the notifications of `event` into the outbox, in the caller's transaction `tx`: they exist exactly when
 * the change they tell of is committed, and the runner sends them after. Who gets what:
 * - e-mail: staff with an address (a command waiting for approval, their command decided, an import finished, a
 *   reconcile break), tier users with one (a settlement, a payout paid, a statement ready); each unless it chose
 *   not to take e-mail;
 * - SMS: a retailer with a mobile number (a sale confirmed, failed or reversed, a payout paid), unless it chose not;
 * - webhook: every endpoint (not deleted) subscribed to the event.
 * Each in the recipient's language. The data is copied into the row: the message says what was true at the change.
 */
export async function notify(tx: Tx, event: NotificationEvent, notice: Notice): Promise<void> {
  await notifyEach(tx, event, [notice]);
}

/** Rows written per statement: a batch's notices times its endpoints stay well under a statement's parameters. */
const ROWS_PER_INSERT = 1_000;

/**
 * notify() for many changes of one kind at once (an import batch's new users), in `tx`: the people and endpoints
 * are read once for all of them.
 */
export async function notifyEach(tx: Tx, event: NotificationEvent, notices: Notice[]): Promise<void> {
  const rows: Row[] = [];
  const to = notices.flatMap((notice) => (notice.to ?? []).map((recipient) => ({ notice, recipient })));
  const audience = MAIL_AUDIENCE[event];
  const sms = SMS_EVENTS.includes(event);
  if (to.length > 0 && (audience || sms)) {
    const people = await tx
      .select({
        id: users.id,
        type: users.type,
        email: users.email,
        mobile: users.mobile,
        status: users.status,
        language: users.language,
        notifyEmail: users.notifyEmail,
        notifySms: users.notifySms,
      })
      .from(users)
      .where(
        inArray(
          users.id,
          to.map((r) => r.recipient.userId),
        ),
      );
    for (const { notice, recipient } of to) {
      const person = people.find((p) => p.id === recipient.userId);
      if (person?.status !== 'ACTIVE') continue;
      const language = person.language as NotificationLanguage;
      const data = { ...notice.data, ...recipient.data };
      const audienceTypes = audience === 'staff' ? STAFF : (TIER_TYPES as readonly number[]);
      if (audience && person.email && person.notifyEmail && audienceTypes.includes(person.type))
        rows.push({ event, channel: 'EMAIL', userId: person.id, recipient: person.email, language, data });
      if (sms && person.mobile && person.notifySms && person.type === UserType.RETAILER)
        rows.push({ event, channel: 'SMS', userId: person.id, recipient: person.mobile, language, data });
    }
  }
  if (isWebhookEvent(event) && notices.length > 0) {
    const endpoints = await tx
      .select({ id: webhookEndpoints.id, url: webhookEndpoints.url })
      .from(webhookEndpoints)
      .where(and(isNull(webhookEndpoints.deletedAt), sql`${event} = any(${webhookEndpoints.events})`));
    for (const notice of notices)
      for (const endpoint of endpoints)
        rows.push({
          event,
          channel: 'WEBHOOK',
          endpointId: endpoint.id,
          recipient: endpoint.url,
          data: notice.webhook ?? notice.data ?? {},
        });
  }
  for (let at = 0; at < rows.length; at += ROWS_PER_INSERT)
    await tx.insert(notifications).values(rows.slice(at, at + ROWS_PER_INSERT));
}

/** The active admins with an e-mail address, but `except` (a command's maker): who may approve a command. */
export async function approvers(tx: Tx, except?: string): Promise<Recipient[]> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        sql`${users.type} = ${UserType.ADMIN}`,
        sql`${users.status} = 'ACTIVE'`,
        sql`${users.email} is not null`,
        except ? sql`${users.id} <> ${except}` : undefined,
      ),
    );
  return rows.map((r) => ({ userId: r.id }));
}
