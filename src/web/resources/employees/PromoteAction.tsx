import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import { DialogContentText } from '@mui/material';
import { type ReactNode, useState } from 'react';
import {
  type RaRecord,
  TextInput,
  useCanAccess,
  useDataProvider,
  useTranslate,
  type ValidateForm,
} from 'react-admin';
import { titleCase } from '../../../shared/format';
import { powerRequestSchema } from '../../../shared/schemas/approvals';
import { DecisionDialog } from '../../forms/DecisionDialog';
import { requiredMark, schemaValidator } from '../../forms/schemaValidator';
import { sharedKey } from '../../i18n/sharedMessages';
import type { RowAction } from '../../lists/RowActions';
import { RowActionButton } from '../../lists/RowActions';
import type { AppDataProvider } from '../../providers/dataProvider';
import { SoleAdminNotice, usePendingText, useSoleAdmin } from '../approvals/SoleAdmin';

const validatePromotion: ValidateForm = schemaValidator(powerRequestSchema);

/**
 * Make Admin (issue 51): asks, with a reason, for an employee to become an admin: a command another admin approves
 * (POST account/promote/{id}, 202). The employee then chooses a new password at its next sign-in. While the network
 * has a single admin nobody can approve it, and the dialog says so.
 */
const PromoteDialog = ({ employee, onClose }: { employee: RaRecord; onClose: () => void }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const soleAdmin = useSoleAdmin();
  const pendingText = usePendingText();
  return (
    <DecisionDialog
      open
      onClose={onClose}
      title="app.employees.promoteTitle"
      submitLabel="app.employees.promote"
      cancelLabel="app.list.cancel"
      color="primary"
      validate={validatePromotion}
      fallbackMessage={sharedKey('approval', 'promotionPending')}
      decide={async (values) => {
        const { message } = await dataProvider.promoteToAdmin(
          employee.id,
          String(values.reason ?? '').trim(),
        );
        return { message: message && pendingText(message) };
      }}
    >
      <DialogContentText>
        {translate('app.employees.promoteText', { name: titleCase(employee.name) })}
      </DialogContentText>
      {soleAdmin && <SoleAdminNotice />}
      <TextInput source="reason" label="app.approvals.reason" multiline minRows={2} validate={requiredMark} />
    </DecisionDialog>
  );
};

/** The Make Admin row action, for those the role table lets ask for admins. */
export const usePromoteAction = (): { action: RowAction[]; dialog: ReactNode } => {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'admins', action: 'create' });
  const [employee, setEmployee] = useState<RaRecord | null>(null);
  if (!canAccess) return { action: [], dialog: null };
  return {
    action: [
      {
        key: 'promote',
        render: (record) =>
          record.status === 'ACTIVE' ? (
            <RowActionButton
              label="app.employees.promote"
              ariaLabel={translate('app.employees.promoteRow', { name: titleCase(record.name) })}
              icon={<AdminPanelSettingsIcon fontSize="small" />}
              onClick={() => setEmployee(record)}
            />
          ) : null,
      },
    ],
    dialog: employee && <PromoteDialog employee={employee} onClose={() => setEmployee(null)} />,
  };
};
