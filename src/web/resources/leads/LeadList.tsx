import VisibilityIcon from '@mui/icons-material/Visibility';
import { useState } from 'react';
import { type Identifier, type RaRecord, SearchInput, useTranslate } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { LEAD_STATUSES, LEAD_TYPES } from '../../../shared/schemas/leads';
import { enumChoices } from '../../i18n/enums';
import { col } from '../../lists/columns';
import { FittedSelectInput } from '../../lists/FittedSelectInput';
import { ResourceList } from '../../lists/ResourceList';
import { RowActionButton } from '../../lists/RowActions';
import { LeadStatusChip } from './LeadChips';
import { LeadDialog } from './LeadDialog';

/** Type, applicant, establishment, mobile, district, status and created at. */
export const LEAD_COLUMNS = [
  col.enum('leadType', 'leadType'),
  col.name('applicantName'),
  col.name('establishmentName'),
  col.text('mobile'),
  col.name('district', { value: (r: RaRecord) => titleCase(r.district?.[0]?.name) }),
  col.enum('status', 'leadStatus', { render: (r: RaRecord) => <LeadStatusChip status={r.status} /> }),
  col.date('createdAt'),
];

/** Search (`q` -> searchText) and the server's two filters, leadType and status. */
const leadFilters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <FittedSelectInput
    key="leadType"
    source="leadType"
    choices={enumChoices('leadType', LEAD_TYPES)}
    emptyText="app.leads.allTypes"
    alwaysOn
  />,
  <FittedSelectInput
    key="status"
    source="status"
    choices={enumChoices('leadStatus', LEAD_STATUSES)}
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
    <>
      <ResourceList
        resource="leads"
        texts="app.leads"
        columns={LEAD_COLUMNS}
        filters={leadFilters}
        rowActions={[
          {
            key: 'view',
            render: (r) => (
              <RowActionButton
                label="app.leads.view"
                ariaLabel={translate('app.leads.viewRow', { name: titleCase(r.applicantName) })}
                icon={<VisibilityIcon fontSize="small" />}
                onClick={() => setOpenId(r.id)}
              />
            ),
          },
        ]}
      />
      <LeadDialog id={openId} onClose={() => setOpenId(null)} />
    </>
  );
};
