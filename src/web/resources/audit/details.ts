import { NOT_RECORDED } from '../../../shared/audit';
import { type EnumGroup, enumKey } from '../../i18n/enums';
import { localise } from '../../i18n/sharedMessages';

type Translate = (key: string, options?: Record<string, unknown>) => string;
type Fields = Record<string, unknown>;

/** How the sentences write amounts (paise on the trail), counts and days: the panel's formatters. */
export interface DetailFormat {
  rupees: (value: unknown) => string;
  count: (value: number) => string;
  date: (value: unknown) => string;
}

/** An action's catalogue key: `app.audit.details.user_login_failed` (the action's dots would nest the catalogue). */
export const detailsKey = (action: string) => `app.audit.details.${action.replace(/\./g, '_')}`;

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));
const rupeesOfPaise = (value: unknown, format: DetailFormat) =>
  value === undefined || value === null || value === '' ? '' : format.rupees(Number(value) / 100);

/**
 * The values a sentence may name, from the row's fields: names, amounts (paise, as rupees), statuses and kinds (by
 * their names in the reader's language), counts and the refusal's message (localised).
 */
function values(action: string, before: Fields, after: Fields, translate: Translate, format: DetailFormat) {
  const code = (group: EnumGroup, value: unknown) =>
    value === undefined || value === null
      ? ''
      : translate(enumKey(group, String(value)), { _: String(value) });
  const counts = (after.counts ?? {}) as Record<string, number>;
  const statusGroup: EnumGroup = action.startsWith('user.')
    ? 'userStatus'
    : action.startsWith('lead.')
      ? 'leadStatus'
      : action.startsWith('approval.')
        ? 'commandStatus'
        : 'saleStatus';
  return {
    name: text(after.name ?? before.name),
    type:
      after.type === undefined || after.type === null
        ? ''
        : translate(`app.userTypes.${after.type}`, { _: '' }),
    userName: text(after.userName),
    amount: rupeesOfPaise(after.amountPaise, format),
    tds: rupeesOfPaise(after.tdsPaise, format),
    reference: text(after.reference),
    note: text(after.note ?? after.reason),
    reason: text(after.rejectionReason),
    from: code(statusGroup, before.status),
    to: code(statusGroup, after.status),
    kind: action.startsWith('import.')
      ? translate(`app.imports.kinds.${text(after.kind)}`, { _: text(after.kind) })
      : code('commandKind', after.kind),
    bsr: text(after.bsrCode),
    serial: text(after.challanSerial),
    date: after.date ? format.date(after.date) : '',
    read: format.count(counts.read ?? 0),
    created: format.count(counts.created ?? 0),
    updated: format.count(counts.updated ?? 0),
    refused: format.count(counts.refused ?? 0),
    errors: format.count(Number(after.errorsTotal ?? 0)),
    message: after.message ? localise(String(after.message), translate) : '',
    smart_count: Number(after.settled ?? after.rows ?? Object.keys({ ...before, ...after }).length),
  };
}

/** One changed field: its label (the catalogue's, or its name when the catalogue has none) and its values. */
function changedField(field: string, before: Fields, after: Fields, translate: Translate) {
  const label = translate(`app.audit.fields.${field}`, { _: field });
  const shown = (value: unknown) =>
    value === undefined || value === null
      ? '—'
      : value === NOT_RECORDED
        ? translate('app.audit.notRecorded')
        : typeof value === 'object'
          ? // A group of values (a product's partner request): its values, not its field names.
            Object.values(value as Fields)
              .map(String)
              .join(', ')
          : String(value);
  return `${label}: ${shown(before[field])} → ${shown(after[field])}`;
}

/** The actions whose sentence is followed by the fields they changed, by their labels. */
const LISTS_FIELDS = /\.update$/;

/**
 * An audit row's details as a sentence of the catalogue (`app.audit.details.<action>`), in the reader's language,
 * naming what was done with the row's values; an update adds the fields it changed, each by its label. Nothing here is a code or a field name, where the catalogue knows it.
 */
export function auditDetails(record: Fields, translate: Translate, format: DetailFormat): string {
  const action = text(record.action);
  const before = (record.before ?? {}) as Fields;
  const after = (record.after ?? {}) as Fields;
  const key = action === 'import.run' && after.dryRun ? detailsKey('import.check') : detailsKey(action);
  let sentence = translate(key, { _: '', ...values(action, before, after, translate, format) });
  if (action === 'user.login.failed' && after.locked) sentence += ` ${translate('app.audit.details.locked')}`;
  if (action === 'wallet.settle' && after.tdsPaise !== undefined)
    sentence += ` ${translate('app.audit.details.tdsWithheld', { tds: rupeesOfPaise(after.tdsPaise, format) })}`;
  if (action === 'import.run')
    sentence += ` ${translate(after.status === 'FAILED' ? 'app.audit.details.importFailed' : 'app.audit.details.importDone')}`;
  if (!LISTS_FIELDS.test(action)) return sentence;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changes = fields.map((field) => changedField(field, before, after, translate)).join('; ');
  return changes ? `${sentence} ${changes}` : sentence;
}
