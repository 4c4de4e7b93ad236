import { Box, Typography } from '@mui/material';
import {
  DataTable,
  DateInput,
  ExportButton,
  List,
  type RaRecord,
  ResourceContextProvider,
  SelectInput,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from '../../../shared/audit';
import { ALL_USER_TYPES, USER_TYPE_NAMES, UserType } from '../../../shared/enums';
import { formatDate, titleCase } from '../../../shared/format';
import { USER_TYPE_RESOURCE } from '../../../shared/roles';
import { PAGE_SIZE } from '../../../shared/rules';
import { SALES_MSG } from '../../../shared/schemas/sales';
import { csv, csvExporter } from '../../lists/csv';
import { ListPagination } from '../../lists/ListPagination';
import { LookupInput } from '../../lists/LookupInput';
import { NoData } from '../../lists/NoData';
import { changesText } from './changes';

export const AUDIT_LIST_PATH = '/audit/list';

const TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

const typeName = (type: unknown) =>
  typeof type === 'number' && type in USER_TYPE_NAMES
    ? titleCase(USER_TYPE_NAMES[type as UserType].replace(/_/g, ' '))
    : '';

/** Who: the user's name and type, or the partner, the system or the public. */
const actorText = (record: RaRecord) => {
  const actor = record.actor ?? {};
  const what = actor.kind === 'USER' ? typeName(actor.type) : titleCase(actor.kind);
  return what ? `${actor.name} (${what})` : String(actor.name ?? '');
};

export const auditExporter = csvExporter<RaRecord>([
  { label: 'Time', value: (r) => r.createdAt },
  { label: 'Actor', value: actorText },
  csv.raw('audit', 'action'),
  csv.raw('audit', 'entity'),
  csv.raw('audit', 'entityId'),
  { label: 'Changes', value: changesText },
  csv.raw('audit', 'ip'),
]);

/** The user filter: a type (every type that signs in), then a user of it; the admin type is its one user. */
const ActorTypeInput = (_: { source: string; alwaysOn?: boolean }) => {
  const { setValue } = useFormContext();
  return (
    <SelectInput
      source="userType"
      label="resources.audit.fields.userType"
      choices={ALL_USER_TYPES.filter((t) => t !== UserType.CUSTOMER && t !== UserType.ADMIN).map((type) => ({
        id: String(type),
        name: typeName(type),
      }))}
      translateChoice={false}
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
        blocked={reference ? undefined : SALES_MSG.selectUserTypeFirst}
      />
    </Box>
  );
};

const auditFilters = [
  <ActorTypeInput key="userType" source="userType" alwaysOn />,
  <ActorLookup key="userId" source="userId" alwaysOn />,
  <SelectInput
    key="entity"
    source="entity"
    choices={AUDIT_ENTITIES.map((id) => ({ id, name: id }))}
    translateChoice={false}
    emptyText="app.audit.anyEntity"
    alwaysOn
  />,
  <SelectInput
    key="action"
    source="action"
    choices={AUDIT_ACTIONS.map((id) => ({ id, name: id }))}
    translateChoice={false}
    emptyText="app.audit.anyAction"
    alwaysOn
  />,
  <DateInput key="from" source="from" alwaysOn />,
  <DateInput key="to" source="to" alwaysOn />,
];

/**
 * The audit trail (ADMIN): every recorded change and refusal, newest first, filtered by user, entity, action
 * and dates (India's calendar days), 10 a page, with CSV export. Read only: nothing here changes a row.
 */
export const AuditList = () => {
  const translate = useTranslate();
  return (
    <ResourceContextProvider value="audit">
      <Box sx={{ pt: 2 }}>
        <Typography variant="h5" component="h1">
          {translate('app.audit.title')}
        </Typography>
        <Typography color="text.secondary">{translate('app.audit.subtitle')}</Typography>
      </Box>
      <List
        resource="audit"
        title={translate('app.audit.title')}
        perPage={PAGE_SIZE}
        sort={{ field: 'createdAt', order: 'DESC' }}
        filters={auditFilters}
        actions={
          <TopToolbar>
            <ExportButton />
          </TopToolbar>
        }
        exporter={auditExporter}
        pagination={<ListPagination />}
        empty={false}
      >
        <DataTable rowClick={false} bulkActionButtons={false} empty={<NoData />}>
          <DataTable.Col
            source="createdAt"
            disableSort
            render={(r: RaRecord) => formatDate(r.createdAt, TIME)}
          />
          <DataTable.Col source="actor" disableSort render={actorText} />
          <DataTable.Col source="action" disableSort />
          <DataTable.Col source="entity" disableSort />
          <DataTable.Col source="entityId" disableSort />
          <DataTable.Col
            source="changes"
            disableSort
            render={(r: RaRecord) => (
              <Typography variant="body2" sx={{ wordBreak: 'break-word', maxWidth: 420 }}>
                {changesText(r)}
              </Typography>
            )}
          />
          <DataTable.Col source="ip" disableSort />
        </DataTable>
      </List>
    </ResourceContextProvider>
  );
};
