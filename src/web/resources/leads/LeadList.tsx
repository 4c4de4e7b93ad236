import VisibilityIcon from '@mui/icons-material/Visibility';
import { Box, Button, Typography } from '@mui/material';
import { useState } from 'react';
import {
  DataTable,
  ExportButton,
  type Identifier,
  List,
  type RaRecord,
  ResourceContextProvider,
  SearchInput,
  SelectInput,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { formatDate, titleCase } from '../../../shared/format';
import { PAGE_SIZE } from '../../../shared/rules';
import { LEAD_STATUSES, LEAD_TYPES } from '../../../shared/schemas/leads';
import { csv, csvExporter } from '../../lists/csv';
import { ListPagination } from '../../lists/ListPagination';
import { NoData } from '../../lists/NoData';
import { LeadStatusChip } from './LeadChips';
import { LeadDialog } from './LeadDialog';

const plain = (values: readonly string[]) => values.map((id) => ({ id, name: id }));
const districtName = (record: RaRecord) => titleCase(record.district?.[0]?.name);

export const leadExporter = csvExporter<RaRecord>([
  csv.raw('leads', 'leadType'),
  csv.name('leads', 'applicantName', (r) => r.applicantName),
  csv.name('leads', 'establishmentName', (r) => r.establishmentName),
  csv.raw('leads', 'mobile'),
  csv.name('leads', 'district', (r) => r.district?.[0]?.name),
  csv.raw('leads', 'status'),
  csv.date('leads'),
]);

/** Search (`q` -> searchText) and the server's two filters, leadType and status. */
const leadFilters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput
    key="leadType"
    source="leadType"
    choices={plain(LEAD_TYPES)}
    translateChoice={false}
    emptyText="app.leads.allTypes"
    alwaysOn
  />,
  <SelectInput
    key="status"
    source="status"
    choices={plain(LEAD_STATUSES)}
    translateChoice={false}
    emptyText="app.leads.allStatuses"
    alwaysOn
  />,
];

/**
 * Onboarding applications for staff (role table `leads`): type, applicant, establishment, mobile, district,
 * status and created at, newest first, 10 a page; filters by type and status and a search. View opens the whole
 * application, where a NEW one can be approved or rejected.
 */
export const LeadList = () => {
  const translate = useTranslate();
  const [openId, setOpenId] = useState<Identifier | null>(null);
  return (
    <ResourceContextProvider value="leads">
      <Box sx={{ pt: 2 }}>
        <Typography variant="h5" component="h1">
          {translate('app.leads.title')}
        </Typography>
        <Typography color="text.secondary">{translate('app.leads.subtitle')}</Typography>
      </Box>
      <List
        resource="leads"
        title={translate('app.leads.title')}
        perPage={PAGE_SIZE}
        sort={{ field: 'createdAt', order: 'DESC' }}
        filters={leadFilters}
        actions={
          <TopToolbar>
            <ExportButton />
          </TopToolbar>
        }
        exporter={leadExporter}
        pagination={<ListPagination />}
        empty={false}
      >
        <DataTable rowClick={false} bulkActionButtons={false} empty={<NoData />}>
          <DataTable.Col source="leadType" disableSort />
          <DataTable.Col
            source="applicantName"
            disableSort
            render={(r: RaRecord) => titleCase(r.applicantName)}
          />
          <DataTable.Col
            source="establishmentName"
            disableSort
            render={(r: RaRecord) => titleCase(r.establishmentName)}
          />
          <DataTable.Col source="mobile" disableSort />
          <DataTable.Col source="district" disableSort render={districtName} />
          <DataTable.Col
            source="status"
            disableSort
            render={(r: RaRecord) => <LeadStatusChip status={r.status} />}
          />
          <DataTable.Col source="createdAt" disableSort render={(r: RaRecord) => formatDate(r.createdAt)} />
          <DataTable.Col
            label={translate('app.leads.view')}
            disableSort
            render={(r: RaRecord) => (
              <Button
                size="small"
                startIcon={<VisibilityIcon />}
                aria-label={translate('app.leads.viewRow', { name: titleCase(r.applicantName) })}
                onClick={() => setOpenId(r.id)}
              >
                {translate('app.leads.view')}
              </Button>
            )}
          />
        </DataTable>
      </List>
      <LeadDialog id={openId} onClose={() => setOpenId(null)} />
    </ResourceContextProvider>
  );
};
