import type { NotificationEvent, NotificationLanguage } from '../../../shared/constants/notifications';
import { formatMonth, formatRupees } from '../../../shared/format';

/**
 * What each notification says, in English and Hindi (the recipient's language): an e-mail's subject and text, an
 * SMS's text. `data` is what the outbox row holds (amounts already in rupees). An SMS names the DLT template it
 * follows (SMS_TEMPLATE_IDS) and sends its values as `params` too, so a gateway that fills the template itself can.
 */
export type TemplateData = Record<string, unknown>;

export interface Mail {
  subject: string;
  text: string;
}

const str = (value: unknown) => (value === null || value === undefined ? '' : String(value));
const rupees = (value: unknown, language: NotificationLanguage) => formatRupees(value, language);

/** The kinds of commands, as the e-mails name them. */
const COMMAND_KIND: Record<NotificationLanguage, Record<string, string>> = {
  en: {
    PAYOUT: 'A payout',
    ADJUSTMENT: 'An adjustment',
    ADMIN_CREATE: 'A new admin',
    ADMIN_PROMOTE: 'Making an employee an admin',
    ADMIN_PASSWORD_RESET: "Resetting an admin's password",
    ADMIN_SECOND_STEP_RESET: "Resetting an admin's second step",
  },
  hi: {
    PAYOUT: 'एक भुगतान',
    ADJUSTMENT: 'एक समायोजन',
    ADMIN_CREATE: 'एक नया एडमिन',
    ADMIN_PROMOTE: 'एक कर्मचारी को एडमिन बनाना',
    ADMIN_PASSWORD_RESET: 'एक एडमिन का पासवर्ड रीसेट',
    ADMIN_SECOND_STEP_RESET: 'एक एडमिन का दूसरा चरण रीसेट',
  },
};

const kindOf = (data: TemplateData, language: NotificationLanguage) =>
  COMMAND_KIND[language][str(data.kind)] ?? str(data.kind);

const amountPart = (data: TemplateData, language: NotificationLanguage) =>
  data.amount === null || data.amount === undefined ? '' : ` (${rupees(data.amount, language)})`;

type MailTemplate = (data: TemplateData, language: NotificationLanguage) => Mail;

const MAILS: Partial<Record<NotificationEvent, MailTemplate>> = {
  'approval.waiting': (d, l) =>
    l === 'hi'
      ? {
          subject: 'स्वीकृति की प्रतीक्षा',
          text: `${kindOf(d, l)}${amountPart(d, l)}, जिसे ${str(d.maker)} ने बनाया, आपकी स्वीकृति की प्रतीक्षा में है। Tierdesk में Approvals खोलें।`,
        }
      : {
          subject: 'A command waits for your approval',
          text: `${kindOf(d, l)}${amountPart(d, l)}, made by ${str(d.maker)}, waits for your approval. Open Approvals in Tierdesk.`,
        },
  'approval.decided': (d, l) => {
    const approved = d.status === 'APPROVED';
    if (l === 'hi')
      return approved
        ? {
            subject: 'आपका अनुरोध स्वीकृत हुआ',
            text: `${kindOf(d, l)}${amountPart(d, l)} का आपका अनुरोध ${str(d.checker)} ने स्वीकृत किया।`,
          }
        : {
            subject: 'आपका अनुरोध अस्वीकृत हुआ',
            text: `${kindOf(d, l)}${amountPart(d, l)} का आपका अनुरोध ${str(d.checker)} ने अस्वीकृत किया। कारण: ${str(d.reason)}`,
          };
    return approved
      ? {
          subject: 'Your command was approved',
          text: `${kindOf(d, l)}${amountPart(d, l)} that you asked for was approved by ${str(d.checker)}.`,
        }
      : {
          subject: 'Your command was rejected',
          text: `${kindOf(d, l)}${amountPart(d, l)} that you asked for was rejected by ${str(d.checker)}. Reason: ${str(d.reason)}`,
        };
  },
  'import.finished': (d, l) =>
    l === 'hi'
      ? {
          subject: 'आयात पूरा हुआ',
          text: `फ़ाइल ${str(d.fileName)} का आयात समाप्त हुआ (${str(d.status)}): ${str(d.created)} बनाए, ${str(d.updated)} अपडेट किए, ${str(d.refused)} अस्वीकृत।`,
        }
      : {
          subject: 'Your import has finished',
          text: `The import of ${str(d.fileName)} has finished (${str(d.status)}): ${str(d.created)} created, ${str(d.updated)} updated, ${str(d.refused)} refused.`,
        },
  'reconcile.break': (d, l) =>
    l === 'hi'
      ? {
          subject: 'मिलान में अंतर मिला',
          text: `मिलान (reconcile) में ${str(d.breaks)} अंतर मिले। Tierdesk में Books खोलें।`,
        }
      : {
          subject: 'Reconcile found a break',
          text: `Reconcile found ${str(d.breaks)} break(s) in the books. Open Books in Tierdesk.`,
        },
  settlement: (d, l) =>
    l === 'hi'
      ? {
          subject: 'आपका कमीशन निपटाया गया',
          text: `${rupees(d.amount, l)} का कमीशन अब आपके वॉलेट में उपलब्ध है।`,
        }
      : {
          subject: 'Your commission has settled',
          text: `${rupees(d.amount, l)} of commission is now available in your wallet.`,
        },
  'payout.paid': (d, l) =>
    l === 'hi'
      ? {
          subject: 'आपका भुगतान हो गया',
          text: `${rupees(d.amount, l)} का भुगतान आपके बैंक खाते में किया गया। संदर्भ: ${str(d.reference)}`,
        }
      : {
          subject: 'Your payout has been paid',
          text: `A payout of ${rupees(d.amount, l)} has been paid to your bank account. Reference: ${str(d.reference)}`,
        },
  'statement.ready': (d, l) =>
    l === 'hi'
      ? {
          subject: 'आपका मासिक विवरण तैयार है',
          text: `${formatMonth(d.month, l)} का आपका विवरण Tierdesk में तैयार है।`,
        }
      : {
          subject: 'Your monthly statement is ready',
          text: `Your statement for ${formatMonth(d.month, l)} is ready in Tierdesk.`,
        },
};

type SmsTemplate = (data: TemplateData, language: NotificationLanguage) => string;

const SMS: Partial<Record<NotificationEvent, SmsTemplate>> = {
  'sale.confirmed': (d, l) =>
    l === 'hi'
      ? `Tierdesk: बिक्री ${str(d.utmCode)} की पुष्टि हुई। कमीशन ${rupees(d.commission, l)}।`
      : `Tierdesk: sale ${str(d.utmCode)} confirmed. Commission ${rupees(d.commission, l)}.`,
  'sale.failed': (d, l) =>
    l === 'hi' ? `Tierdesk: बिक्री ${str(d.utmCode)} विफल रही।` : `Tierdesk: sale ${str(d.utmCode)} failed.`,
  'sale.reversed': (d, l) =>
    l === 'hi'
      ? `Tierdesk: बिक्री ${str(d.utmCode)} वापस हुई; कमीशन ${rupees(d.commission, l)} वापस लिया गया।`
      : `Tierdesk: sale ${str(d.utmCode)} reversed; commission ${rupees(d.commission, l)} taken back.`,
  'payout.paid': (d, l) =>
    l === 'hi'
      ? `Tierdesk: ${rupees(d.amount, l)} का भुगतान किया गया। संदर्भ ${str(d.reference)}।`
      : `Tierdesk: payout of ${rupees(d.amount, l)} paid. Reference ${str(d.reference)}.`,
};

export const mailOf = (event: NotificationEvent, data: TemplateData, language: NotificationLanguage) =>
  MAILS[event]?.(data, language);
export const smsOf = (event: NotificationEvent, data: TemplateData, language: NotificationLanguage) =>
  SMS[event]?.(data, language);

/** Who takes an event by e-mail: staff (admins, employees) or tier users. */
export const MAIL_AUDIENCE: Partial<Record<NotificationEvent, 'staff' | 'tier'>> = {
  'approval.waiting': 'staff',
  'approval.decided': 'staff',
  'import.finished': 'staff',
  'reconcile.break': 'staff',
  settlement: 'tier',
  'payout.paid': 'tier',
  'statement.ready': 'tier',
};

/** Events a retailer takes by SMS. */
export const SMS_EVENTS: readonly NotificationEvent[] = Object.keys(SMS) as NotificationEvent[];
