import { DialogContentText } from '@mui/material';
import { type RaRecord, TextInput, useDataProvider, useTranslate, type ValidateForm } from 'react-admin';
import { approveLeadSchema, rejectLeadSchema } from '../../../shared/schemas/leads';
import { ChainedLookups } from '../../forms/ChainedLookups';
import { DecisionDialog } from '../../forms/DecisionDialog';
import { requiredMark, schemaValidator } from '../../forms/schemaValidator';
import { sharedKey } from '../../i18n/sharedMessages';
import type { AppDataProvider } from '../../providers/dataProvider';

/** Approving needs the master distributor, and for a retailer also its distributor (approveLeadSchema). */
export const validateApproval = (leadType: string): ValidateForm => {
  const rules = schemaValidator(
    leadType === 'RETAILER' ? approveLeadSchema.required({ distributorId: true }) : approveLeadSchema,
    {
      toInput: (values) => ({
        masterDistributorId: values.masterDistributorId ?? undefined,
        distributorId: values.distributorId ?? undefined,
      }),
    },
  );
  return rules;
};

export const validateRejection: ValidateForm = schemaValidator(rejectLeadSchema);

/** Master distributor, then (for a retailer) a distributor of that master distributor. */
const ParentLookups = ({ retailer }: { retailer: boolean }) => (
  <ChainedLookups
    levels={[
      {
        source: 'masterDistributorId',
        reference: 'masterDistributors',
        label: 'app.leads.masterDistributorId',
        validate: requiredMark,
      },
      ...(retailer
        ? [
            {
              source: 'distributorId',
              reference: 'distributors',
              label: 'app.leads.distributorId',
              parentFilter: 'masterDistributorId',
              validate: requiredMark,
            },
          ]
        : []),
    ]}
  />
);

export interface DecisionProps {
  lead: RaRecord;
  open: boolean;
  onClose: () => void;
}

/** POST leads/approve/{id}: the applicant becomes a retailer or distributor under the chosen parent. */
export const ApproveDialog = ({ lead, open, onClose }: DecisionProps) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const retailer = lead.leadType === 'RETAILER';
  return (
    <DecisionDialog
      cancelLabel="app.leads.cancel"
      open={open}
      onClose={onClose}
      title="app.leads.approveTitle"
      submitLabel="app.leads.approve"
      color="primary"
      validate={validateApproval(lead.leadType)}
      fallbackMessage={sharedKey('lead', 'approved')}
      decide={(values) =>
        dataProvider.approveLead(lead.id, {
          masterDistributorId: String(values.masterDistributorId),
          ...(retailer ? { distributorId: String(values.distributorId) } : {}),
        })
      }
    >
      <DialogContentText>
        {translate(retailer ? 'app.leads.approveRetailer' : 'app.leads.approveDistributor')}
      </DialogContentText>
      <ParentLookups retailer={retailer} />
    </DecisionDialog>
  );
};

/** POST leads/reject/{id} with the reason. */
export const RejectDialog = ({ lead, open, onClose }: DecisionProps) => {
  const dataProvider = useDataProvider<AppDataProvider>();
  return (
    <DecisionDialog
      cancelLabel="app.leads.cancel"
      open={open}
      onClose={onClose}
      title="app.leads.rejectTitle"
      submitLabel="app.leads.reject"
      color="error"
      validate={validateRejection}
      fallbackMessage={sharedKey('lead', 'rejected')}
      decide={(values) => dataProvider.rejectLead(lead.id, String(values.reason ?? '').trim())}
    >
      <TextInput source="reason" label="app.leads.reason" multiline minRows={3} validate={requiredMark} />
    </DecisionDialog>
  );
};
