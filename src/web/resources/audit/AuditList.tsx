import { Box, Typography } from '@mui/material';
import { useCallback, useEffect } from 'react';
import { DateInput, type RaRecord, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from '../../../shared/audit';
import { dateOrderError, filterDate } from '../../../shared/dates';
import { ALL_USER_TYPES, USER_TYPE_NAMES, UserType } from '../../../shared/enums';
import { titleCase } from '../../../shared/format';
import { USER_TYPE_RESOURCE } from '../../../shared/roles';
import { enumChoices } from '../../i18n/enums';
import { useFormat } from '../../i18n/format';
import { messageKey, sharedKey } from '../../i18n/sharedMessages';
import { useRefusedFilter } from '../../lists/bookmarkedFilters';
import { type Column, col } from '../../lists/columns';
import { FittedSelectInput } from '../../lists/FittedSelectInput';
import { LookupInput } from '../../lists/LookupInput';
import { ResourceList } from '../../lists/ResourceList';
import { changesText } from './changes';
import { auditDetails } from './details';

/** The types whose users sign in (the filter's choices): the customer never does, the admin is one user. */
const ACTOR_TYPES = ALL_USER_TYPES.filter((t) => t !== UserType.CUSTOMER && t !== UserType.ADMIN);

const userTypeKey = (type: unknown) => `app.userTypes.${String(type)}`;

/** Who: the user's name (title case, as in every list) and type, or the partner, the system or the public. */
const ActorText = ({ record }: { record: RaRecord }) => {
  const translate = useTranslate();
  const actor = record.actor ?? {};
  const name = actor.kind === 'USER' ? titleCase(actor.name) : String(actor.name ?? '');
  const what =
    actor.kind === 'USER'
      ? translate(userTypeKey(actor.type), { _: '' })
      : translate(`app.audit.actorKinds.${actor.kind}`, { _: titleCase(actor.kind) });
  return <>{what ? `${name} (${what})` : name}</>;
};

/** What the row records, as a sentence of the catalogue in the reader's language (details.ts). */
const DetailsText = ({ record }: { record: RaRecord }) => {
  const translate = useTranslate();
  const format = useFormat();
  return (
    <Typography variant="body2" sx={{ wordBreak: 'break-word', maxWidth: 420 }}>
      {auditDetails(record, translate, format)}
    </Typography>
  );
};

/** The CSV's actor text: the English the server's names and codes read as (a CSV is not localised data). */
const actorCsv = (record: RaRecord) => {
  const actor = record.actor ?? {};
  const what =
    actor.kind === 'USER'
      ? titleCase(USER_TYPE_NAMES[actor.type as UserType]?.replace(/_/g, ' '))
      : titleCase(actor.kind);
  return what ? `${actor.name} (${what})` : String(actor.name ?? '');
};

/** Seed-style columns of the audit trail, declared once for the table and the CSV. */
export const AUDIT_COLUMNS: Column[] = [
  col.date('createdAt'),
  col.text('actor', { render: (r) => <ActorText record={r} />, csv: actorCsv }),
  col.enum('action', 'auditAction'),
  col.enum('entity', 'auditEntity', { hideBelow: 'md' }),
  col.text('entityId', { hideBelow: 'lg' }),
  col.text('changes', {
    // The CSV keeps the fields and values as the server recorded them (a CSV is not localised data).
    value: changesText,
    render: (r) => <DetailsText record={r} />,
  }),
  col.text('ip', { hideBelow: 'md' }),
];

/** The user filter: a type (every type that signs in), then a user of it; the admin type is its one user. */
const ActorTypeInput = (_: { source: string; alwaysOn?: boolean }) => {
  const { setValue } = useFormContext();
  return (
    <FittedSelectInput
      source="userType"
      label="resources.audit.fields.userType"
      choices={ACTOR_TYPES.map((type) => ({ id: String(type), name: userTypeKey(type) }))}
      emptyText="app.audit.anyUser"
      onChange={() => setValue('userId', null, { shouldDirty: true })}
    />
  );
};

const ActorLookup = (_: { source: string; alwaysOn?: boolean }) => {
  const userType = useWatch({ name: 'userType' }) as string | null | undefined;
  const reference = userType ? USER_TYPE_RESOURCE[Number(userType)] : undefined;
  return (
    <Box sx={{ minWidth: 240 }}>
      <LookupInput
        key={reference ?? 'none'}
        source="userId"
        reference={reference ?? 'employees'}
        label="resources.audit.fields.userId"
        blocked={reference ? undefined : sharedKey('sales', 'selectUserTypeFirst')}
      />
    </Box>
  );
};

/**
 * From or To, checked by the server's own date rule (src/shared/dates.ts): a date out of range, or From later than
 * To, is marked on the field and never sent, so the list keeps its rows (react-admin applies a filter only while
 * its form is valid). The order is checked again on this field when the other one changes.
 */
const AuditDateInput = ({ source }: { source: 'from' | 'to'; alwaysOn?: boolean }) => {
  const { trigger } = useFormContext();
  const other = useWatch({ name: source === 'from' ? 'to' : 'from' });
  useEffect(() => {
    // The other date changed (or was cleared): this field's order check may have changed with it.
    if (other !== undefined) trigger(source);
  }, [other, source, trigger]);
  useRefusedFilter(source);
  const validate = useCallback(
    (value: unknown, values: Record<string, unknown>) => {
      const error = auditDateError(source, value, values);
      return error === undefined ? undefined : messageKey(error);
    },
    [source],
  );
  return <DateInput source={source} validate={validate} />;
};

/** From's or To's refusal by the server's rule, given both: not a date in range, or From later than To. */
const auditDateError = (source: 'from' | 'to', value: unknown, values: Record<string, unknown>) =>
  typeof value !== 'string' || value === ''
    ? undefined
    : (filterDate(value, source === 'from' ? 'start' : 'end').error ??
      dateOrderError(values.from, values.to));

/** The dates an address brought that the fields refuse (ResourceList's `refusedFilters`). */
const refusedDates = (filters: Record<string, unknown>) =>
  (['from', 'to'] as const).filter(
    (source) =>
      filters[source] !== undefined && auditDateError(source, filters[source], filters) !== undefined,
  );

const auditFilters = [
  <ActorTypeInput key="userType" source="userType" alwaysOn />,
  <ActorLookup key="userId" source="userId" alwaysOn />,
  <FittedSelectInput
    key="entity"
    source="entity"
    choices={enumChoices('auditEntity', AUDIT_ENTITIES)}
    emptyText="app.audit.anyEntity"
    alwaysOn
  />,
  <FittedSelectInput
    key="action"
    source="action"
    choices={enumChoices('auditAction', AUDIT_ACTIONS)}
    emptyText="app.audit.anyAction"
    alwaysOn
  />,
  <AuditDateInput key="from" source="from" alwaysOn />,
  <AuditDateInput key="to" source="to" alwaysOn />,
];

/**
 * The audit trail (ADMIN): every recorded change and refusal, newest first, filtered by user, entity, action
 * and dates (India's calendar days), 10 a page, with CSV export. Read only: nothing here changes a row. Each row's
 * details read as a sentence in the reader's language; the CSV keeps the server's fields and values.
 */
export const AuditList = () => (
  <ResourceList
    resource="audit"
    texts="app.audit"
    columns={AUDIT_COLUMNS}
    filters={auditFilters}
    refusedFilters={refusedDates}
  />
);
