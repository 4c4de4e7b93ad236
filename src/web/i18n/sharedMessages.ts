import { APPROVAL_MSG } from '../../shared/constants/approvals';
import { AUDIT_MSG } from '../../shared/constants/audit';
import { CATALOG_MSG } from '../../shared/constants/catalog';
import { DOCUMENT_MSG } from '../../shared/constants/documents';
import { LEAD_MSG } from '../../shared/constants/leads';
import { LOCATION_MSG } from '../../shared/constants/locations';
import { MFA_MSG } from '../../shared/constants/mfa';
import { NOTIFY_MSG } from '../../shared/constants/notifications';
import { REPORT_MSG } from '../../shared/constants/reports';
import { SALES_MSG } from '../../shared/constants/sales';
import { STATEMENT_MSG } from '../../shared/constants/statements';
import { TDS_MSG } from '../../shared/constants/tds';
import { USER_MSG, USER_SAVED_MSG } from '../../shared/constants/users';
import { MSG } from '../../shared/messages';
import { IMPORT_MSG, IMPORT_PARENT_NAME } from '../../shared/schemas/imports';
import {
  escapeRegExp,
  localiseWith,
  minutesTemplate,
  recogniser,
  type Template,
  type Translate,
  templateOf,
} from './localise';
import { signinEn } from './signin/en';
import { SIGNIN_TEMPLATES } from './signin/texts';

/**
 * The texts the server and the shared schemas say (src/shared), as catalogue entries: `app.shared.<group>.<name>`.
 * The server keeps answering English; the panel shows a message it recognises through the catalogue, so a Hindi
 * user reads it in Hindi, and an English user reads exactly what the server sent. A message it does not know
 * (a name inside it, a new text) is shown as sent.
 */

type Catalogue = Record<string, unknown>;

/** The fixed (non-templated) texts of a shared catalogue. */
const fixedTexts = (catalogue: Catalogue): Record<string, string> =>
  Object.fromEntries(
    Object.entries(catalogue).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );

const savedTexts = Object.fromEntries(
  Object.entries(USER_SAVED_MSG).flatMap(([type, { created, updated }]) => [
    [`created${type}`, created],
    [`updated${type}`, updated],
  ]),
);

/**
 * English catalogue entries of the shared texts (the Hindi catalogue has the same keys). Templated texts are written
 * as polyglot phrases that give the server's exact English for the same arguments (checked by a web test).
 */
export const sharedMessagesEn = {
  /** With the sign-in form's (signin/en.ts): its throttling and field-bound phrases are written there. */
  msg: {
    ...fixedTexts(MSG),
    ...signinEn.app.shared.msg,
    routeNotFound: 'Route %{method} %{url} not found',
    unhandled: 'Unhandled error for - %{code}',
  },
  location: {
    ...fixedTexts(LOCATION_MSG),
    duplicateState: 'A state named "%{name}" already exists',
    duplicateDistrict: 'A district named "%{name}" already exists in this state',
    duplicateTehsil: 'A tehsil named "%{name}" already exists in this district',
  },
  catalog: {
    ...fixedTexts(CATALOG_MSG),
    duplicateProvider: 'A provider named "%{name}" already exists',
    duplicateProduct: 'A product named "%{name}" already exists for this provider',
    amountAboveBound: 'Amount must be at most %{amount}',
  },
  user: { ...fixedTexts(USER_MSG), ...savedTexts },
  lead: {
    ...fixedTexts(LEAD_MSG),
    pictureType: LEAD_MSG.fileType('picture'),
    documentType: LEAD_MSG.fileType('document'),
    pictureTooLarge: LEAD_MSG.fileTooLarge('picture'),
    documentTooLarge: LEAD_MSG.fileTooLarge('document'),
    missingPart: '%{part} is required',
    badJson: '%{part} must be valid JSON',
    unexpectedPart: 'Unexpected part: %{part}',
  },
  sales: {
    ...fixedTexts(SALES_MSG),
    settled: '%{smart_count} commission settled |||| %{smart_count} commissions settled',
    payoutExceedsBalance: 'Payout exceeds the available balance of %{amount}',
    adjustmentExceedsBalance: 'Adjustment exceeds the available balance of %{amount}',
    amountAboveBound: 'Amount must be at most %{amount}',
    productAccountType: 'This product opens %{accountType} accounts',
    openingBoundToProduct: 'This account opening is for %{opened}; it cannot be recorded as %{asked}',
    reopenNotPending: 'This sale is %{status}: only a pending sale can be reopened',
    partnerFailed: 'The partner could not open the account (HTTP %{status})',
    openedAfterEnd: 'The sale is %{status}: it cannot be opened now',
    reversalShortfall:
      'The sale cannot be reversed: the available balance of %{name} is lower than its share',
  },
  /** Power commands (issue 51): making an admin, resetting another admin's password or second step. */
  approval: fixedTexts(APPROVAL_MSG),
  audit: fixedTexts(AUDIT_MSG),
  /** Two-step sign-in and sessions (issue 51). */
  mfa: {
    ...fixedTexts(MFA_MSG),
    ...signinEn.app.shared.mfa,
    tooManyCodeAttempts:
      'Too many wrong codes. Try again in %{smart_count} minute. |||| Too many wrong codes. Try again in %{smart_count} minutes.',
  },
  tds: { ...fixedTexts(TDS_MSG), aboveTdsPayable: 'The amount is more than TDS payable (%{amount})' },
  /** Bulk import (issue 45): the file-level refusals and the row errors the Import screen shows. */
  import: {
    ...fixedTexts(IMPORT_MSG),
    unknownKind: 'There is no import of "%{kind}"',
    malformed: 'The file is not valid CSV: a quoted cell is broken near line %{line}',
    tooManyRows: 'The file has more than %{max} rows. Split it into smaller files and send each one.',
    missingColumn: 'The header row has no column "%{column}"',
    unknownColumn: 'The header row has a column this import does not take: "%{column}"',
    repeatedColumn: 'The header row names the column "%{column}" twice',
    cellCount: 'The row has %{cells} cells; the header has %{columns}',
    sameAsRow: 'The same as row %{row} of this file',
    stateMissing: 'State "%{state}" does not exist',
    districtMissing: 'District "%{district}" does not exist in state "%{state}"',
    tehsilMissing: 'Tehsil "%{tehsil}" does not exist in district "%{district}"',
    masterDistributorMissing: 'No master distributor has the mobile number "%{mobile}"',
    distributorMissing: 'No distributor has the mobile number "%{mobile}"',
    retailerMissing: 'No retailer has the mobile number "%{mobile}"',
    conflict: 'Already exists with other values (%{columns}); import with mode "update" to change them',
  },
  /** Documents (issue 52): the language a receipt, statement or TDS certificate is asked in. */
  documents: fixedTexts(DOCUMENT_MSG),
  /** Monthly statements (issue 43): the refusals of `statements/fetch`. */
  statement: fixedTexts(STATEMENT_MSG),
  /** Notifications (issue 55): webhook endpoints, deliveries, one's own choices. */
  notify: fixedTexts(NOTIFY_MSG),
  /** The dashboard's charts (issue 55). */
  report: fixedTexts(REPORT_MSG),
};

type Group = keyof typeof sharedMessagesEn;

/** The catalogue key of a shared text: `sharedKey('lead', 'thankYou')` -> 'app.shared.lead.thankYou'. */
export const sharedKey = (group: Group, name: string) => `app.shared.${group}.${name}`;

/** English text -> catalogue key, for every fixed text (the first key wins where two catalogues share a text). */
const KEY_OF_TEXT = new Map<string, string>();
for (const [group, entries] of Object.entries(sharedMessagesEn))
  for (const [name, text] of Object.entries(entries))
    if (!text.includes('%{') && !KEY_OF_TEXT.has(text)) KEY_OF_TEXT.set(text, `app.shared.${group}.${name}`);

/** Server texts with an argument inside: how to recognise each, and the phrase's arguments. */
const TEMPLATES: Template[] = [
  // The sign-in form's: the throttling's minutes, a field's upper bound.
  ...SIGNIN_TEMPLATES,
  minutesTemplate(sharedKey('mfa', 'tooManyCodeAttempts'), MFA_MSG.tooManyCodeAttempts),
  ...(
    [
      ['location', 'duplicateState', LOCATION_MSG.duplicateState],
      ['location', 'duplicateDistrict', LOCATION_MSG.duplicateDistrict],
      ['location', 'duplicateTehsil', LOCATION_MSG.duplicateTehsil],
      ['catalog', 'duplicateProvider', CATALOG_MSG.duplicateProvider],
      ['catalog', 'duplicateProduct', CATALOG_MSG.duplicateProduct],
    ] as const
  ).map(([group, name, text]) => ({
    key: `app.shared.${group}.${name}`,
    pattern: new RegExp(`^${escapeRegExp(text('\u0000')).replace('\u0000', '(.*)')}$`),
    args: (m: RegExpMatchArray) => ({ name: m[1] }),
  })),
  {
    key: sharedKey('sales', 'settled'),
    pattern: /^(\d+) commissions? settled$/,
    args: (m) => ({ smart_count: Number(m[1]) }),
  },
  {
    key: sharedKey('catalog', 'amountAboveBound'),
    pattern: /^Amount must be at most (.*)$/,
    args: (m) => ({ amount: m[1] }),
  },
  {
    key: sharedKey('sales', 'payoutExceedsBalance'),
    pattern: /^Payout exceeds the available balance of (.*)$/,
    args: (m) => ({ amount: m[1] }),
  },
  {
    key: sharedKey('tds', 'aboveTdsPayable'),
    pattern: /^The amount is more than TDS payable \((.*)\)$/,
    args: (m) => ({ amount: m[1] }),
  },
  {
    key: sharedKey('sales', 'adjustmentExceedsBalance'),
    pattern: /^Adjustment exceeds the available balance of (.*)$/,
    args: (m) => ({ amount: m[1] }),
  },
];

/** A templated shared text, recognised from its own function (localise.ts, templateOf). */
const templated = (
  group: Group,
  name: string,
  // biome-ignore lint/suspicious/noExplicitAny: the texts' functions take strings or numbers; markers stand in
  text: (...args: any[]) => string,
  names: string[],
) => templateOf(sharedKey(group, name), text, names);

TEMPLATES.push(
  templated('import', 'unknownKind', IMPORT_MSG.unknownKind, ['kind']),
  templated('import', 'malformed', IMPORT_MSG.malformed, ['line']),
  templated('import', 'tooManyRows', IMPORT_MSG.tooManyRows, ['max']),
  templated('import', 'missingColumn', IMPORT_MSG.missingColumn, ['column']),
  templated('import', 'unknownColumn', IMPORT_MSG.unknownColumn, ['column']),
  templated('import', 'repeatedColumn', IMPORT_MSG.repeatedColumn, ['column']),
  templated('import', 'cellCount', IMPORT_MSG.cellCount, ['cells', 'columns']),
  templated('import', 'sameAsRow', IMPORT_MSG.sameAsRow, ['row']),
  templated('import', 'stateMissing', IMPORT_MSG.stateMissing, ['state']),
  templated('import', 'districtMissing', IMPORT_MSG.districtMissing, ['district', 'state']),
  templated('import', 'tehsilMissing', IMPORT_MSG.tehsilMissing, ['tehsil', 'district']),
  ...(
    [
      ['masterDistributorMissing', IMPORT_PARENT_NAME.masterDistributorMobile],
      ['distributorMissing', IMPORT_PARENT_NAME.distributorMobile],
      ['retailerMissing', IMPORT_PARENT_NAME.retailerMobile],
    ] as const
  ).map(([name, who]) =>
    templated('import', name, (mobile: string) => IMPORT_MSG.parentMissing(who, mobile), ['mobile']),
  ),
  templated('import', 'conflict', (columns: string) => IMPORT_MSG.conflict([columns]), ['columns']),
  templated('msg', 'routeNotFound', MSG.routeNotFound, ['method', 'url']),
  templated('msg', 'unhandled', MSG.unhandled, ['code']),
  templated('sales', 'productAccountType', SALES_MSG.productAccountType, ['accountType']),
  templated('sales', 'openingBoundToProduct', SALES_MSG.openingBoundToProduct, ['opened', 'asked']),
  templated('sales', 'reopenNotPending', SALES_MSG.reopenNotPending, ['status']),
  templated('sales', 'partnerFailed', SALES_MSG.partnerFailed, ['status']),
  templated('sales', 'openedAfterEnd', SALES_MSG.openedAfterEnd, ['status']),
  templated('sales', 'reversalShortfall', SALES_MSG.reversalShortfall, ['name']),
  // Last: their patterns are the broadest ('<part> is required').
  templated('lead', 'unexpectedPart', LEAD_MSG.unexpectedPart, ['part']),
  templated('lead', 'badJson', LEAD_MSG.badJson, ['part']),
  templated('lead', 'missingPart', LEAD_MSG.missingPart, ['part']),
);

/** The catalogue entry of a text the server or a shared schema says; undefined for a text it does not know. */
export const sharedMessage = recogniser(KEY_OF_TEXT, TEMPLATES);

/** A shared text's catalogue key, or the text itself when it has none (react-admin then shows it as it is). */
export const messageKey = (text: string): string => sharedMessage(text)?.key ?? text;

/**
 * What a notification or a field message shows, in the chosen language: a catalogue key is translated; a shared
 * text through its entry; the seed's normalised HTTP failure ('Error: <message>', seed section 8) keeps its form
 * with the message inside translated; anything else as it is.
 */
export const localise = (text: string, translate: Translate, args?: Record<string, unknown>): string =>
  localiseWith(sharedMessage, text, translate, args);
