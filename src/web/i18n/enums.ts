import { useTranslate } from 'react-admin';
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from '../../shared/audit';
import { REQUEST_METHODS, URL_DATA_IDENTIFIERS } from '../../shared/constants/catalog';
import {
  GENDERS,
  IDENTITY_DOCUMENTS,
  LEAD_STATUSES,
  LEAD_TYPES,
  OWNERSHIP_TYPES,
} from '../../shared/constants/leads';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENTS,
  NOTIFICATION_STATUSES,
} from '../../shared/constants/notifications';
import {
  POSTING_STATUSES,
  PostingKind,
  SALE_STATUSES,
  TRANSACTION_TYPES,
  USER_STATUSES,
  WalletBalance,
} from '../../shared/enums';
import { COMMAND_KINDS, COMMAND_STATUSES } from '../../shared/schemas/approvals';

/**
 * The codes the server sends and the panel shows (statuses, types, kinds), by group. In English each reads as the
 * seed writes it (ACTIVE, CREDIT, Male); the catalogue gives each a text (`app.enums.<group>.<code>`), so another
 * language can name them. The wire keeps the codes.
 */
export const ENUMS = {
  userStatus: USER_STATUSES,
  transactionType: TRANSACTION_TYPES,
  postingKind: Object.values(PostingKind),
  postingStatus: POSTING_STATUSES,
  /** Which balance a posting moved (statements). */
  walletBalance: Object.values(WalletBalance),
  /** What a pending command is (Approvals). */
  commandKind: COMMAND_KINDS,
  commandStatus: COMMAND_STATUSES,
  saleStatus: SALE_STATUSES,
  leadType: LEAD_TYPES,
  leadStatus: LEAD_STATUSES,
  gender: GENDERS,
  ownership: OWNERSHIP_TYPES,
  identityDocument: IDENTITY_DOCUMENTS,
  requestMethod: REQUEST_METHODS,
  accountType: URL_DATA_IDENTIFIERS,
  auditAction: AUDIT_ACTIONS,
  auditEntity: AUDIT_ENTITIES,
  /** Notifications (issue 55): a delivery's channel and state, and the event it tells of. */
  notificationChannel: NOTIFICATION_CHANNELS,
  notificationStatus: NOTIFICATION_STATUSES,
  notificationEvent: NOTIFICATION_EVENTS,
} as const;

export type EnumGroup = keyof typeof ENUMS;

/** English names that differ from the code. */
const ENGLISH: Partial<Record<EnumGroup, Record<string, string>>> = {
  commandKind: {
    ADMIN_CREATE: 'New admin',
    ADMIN_PROMOTE: 'Employee to admin',
    ADMIN_PASSWORD_RESET: 'Admin password reset',
    ADMIN_SECOND_STEP_RESET: 'Admin second step reset',
  },
  identityDocument: {
    AADHAR: 'Aadhar',
    PAN: 'PAN',
    VOTERID: 'Voter ID',
    DL: 'Driving Licence',
    OTHER: 'Other',
  },
};

export const enumsEn = Object.fromEntries(
  Object.entries(ENUMS).map(([group, codes]) => [
    group,
    Object.fromEntries(codes.map((code) => [code, ENGLISH[group as EnumGroup]?.[code] ?? code])),
  ]),
) as Record<EnumGroup, Record<string, string>>;

export const enumKey = (group: EnumGroup, code: string) => `app.enums.${group}.${code}`;

/** Select/radio choices of a group: the code as the value, its catalogue key as the (translated) name. */
export const enumChoices = (group: EnumGroup, codes: readonly string[] = ENUMS[group]) =>
  codes.map((id) => ({ id, name: enumKey(group, id) }));

/** A code as text in the chosen language (the code itself when the catalogue does not know it). */
export const useEnumText = () => {
  const translate = useTranslate();
  return (group: EnumGroup, code: unknown) =>
    code === null || code === undefined || code === ''
      ? ''
      : translate(enumKey(group, String(code)), { _: String(code) });
};
