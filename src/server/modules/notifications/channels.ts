import nodemailer, { type Transporter } from 'nodemailer';
import type {
  NotificationChannel,
  NotificationEvent,
  NotificationLanguage,
} from '../../../shared/constants/notifications';
import type { NotifyConfig } from '../../config';
import { signCallback } from '../../security/signature';
import { mailOf, smsOf, type TemplateData } from './templates';

/** The header every webhook delivery and SMS gateway call is signed in: `t=<unix>,v1=<HMAC-SHA256 of "t.body">`. */
export const TIERDESK_SIGNATURE_HEADER = 'X-Tierdesk-Signature';

/** A receiver (an endpoint, the gateway, the SMTP server) that has not answered within this has failed. */
const SEND_TIMEOUT_MS = 10_000;

/** One outbox row as a channel sends it. */
export interface Outgoing {
  id: string;
  event: NotificationEvent;
  channel: NotificationChannel;
  recipient: string;
  language: NotificationLanguage;
  data: TemplateData;
  createdAt: Date;
  /** A webhook's endpoint secret (null once the endpoint is deleted). */
  secret?: string | null;
}

export interface ChannelLog {
  info(obj: unknown, msg: string): void;
}

/** A failure that another attempt cannot mend (the endpoint deleted): the delivery ends FAILED at once. */
export class Undeliverable extends Error {}

/** Sends one notification; throws what went wrong (recorded as the attempt's error). */
export type Send = (message: Outgoing) => Promise<void>;

/** Refuses a receiver's answer that is not 2xx, with its status. */
async function expectOk(response: Response) {
  // Read (and drop) the body, so the connection can be reused.
  await response.arrayBuffer().catch(() => undefined);
  if (!response.ok) throw new Error(`answered ${response.status}`);
}

/** POSTs `body` signed with `secret` (as the partner's callbacks are signed) to `url`, within SEND_TIMEOUT_MS. */
async function postSigned(url: string, body: string, secret: string, extra: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [TIERDESK_SIGNATURE_HEADER]: signCallback(secret, body),
      ...extra,
    },
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
  await expectOk(response);
}

/** A webhook delivery's body: its id (the same on every attempt, for de-duplication), the event, when, and data. */
export const webhookBody = (message: Outgoing) =>
  JSON.stringify({
    id: message.id,
    event: message.event,
    createdAt: message.createdAt.toISOString(),
    data: message.data,
  });

/**
 * The channels of this server's configuration: e-mail through SMTP (nodemailer), SMS through the gateway, webhooks.
 * Without SMTP_URL or SMS_GATEWAY_URL, that channel's messages are written to the log (and count as sent).
 */
export function channelsOf(config: NotifyConfig, log: ChannelLog): { send: Send; close(): void } {
  const mailer: Transporter | null = config.smtpUrl
    ? nodemailer.createTransport({
        url: config.smtpUrl,
        connectionTimeout: SEND_TIMEOUT_MS,
        greetingTimeout: SEND_TIMEOUT_MS,
        socketTimeout: SEND_TIMEOUT_MS,
      })
    : null;

  const email: Send = async (message) => {
    const mail = mailOf(message.event, message.data, message.language);
    if (!mail) throw new Error(`no e-mail template for ${message.event}`);
    if (!mailer) {
      log.info(
        { notification: message.id, event: message.event, subject: mail.subject },
        'E-mail (no SMTP_URL)',
      );
      return;
    }
    await mailer.sendMail({
      from: config.mailFrom,
      to: message.recipient,
      subject: mail.subject,
      text: mail.text,
      // The outbox id: a message sent again (after a server died before recording it) is recognisably the same.
      messageId: `<${message.id}@tierdesk>`,
      headers: { 'X-Tierdesk-Notification': message.id },
    });
  };

  const sms: Send = async (message) => {
    const text = smsOf(message.event, message.data, message.language);
    if (text === undefined) throw new Error(`no SMS template for ${message.event}`);
    const templateId = config.smsTemplateIds[message.event] ?? null;
    if (!config.smsGatewayUrl) {
      log.info({ notification: message.id, event: message.event, templateId }, 'SMS (no SMS_GATEWAY_URL)');
      return;
    }
    const body = JSON.stringify({
      id: message.id,
      to: message.recipient,
      templateId,
      params: message.data,
      text,
    });
    await postSigned(config.smsGatewayUrl, body, config.smsGatewaySecret ?? '');
  };

  const webhook: Send = async (message) => {
    if (!message.secret) throw new Undeliverable('the webhook endpoint was deleted');
    await postSigned(message.recipient, webhookBody(message), message.secret);
  };

  const byChannel: Record<NotificationChannel, Send> = { EMAIL: email, SMS: sms, WEBHOOK: webhook };
  return {
    send: (message) => byChannel[message.channel](message),
    close: () => mailer?.close(),
  };
}
