import ToggleOnIcon from '@mui/icons-material/ToggleOn';
import { useMemo, useState } from 'react';
import { type RaRecord, SelectInput, useCanAccess, useTranslate } from 'react-admin';
import { toggledStatus, USER_STATUSES, type UserStatus } from '../../../shared/enums';
import { titleCase } from '../../../shared/format';
import { statusSchema } from '../../../shared/schemas/users';
import { requiredMark, schemaValidator } from '../../forms/schemaValidator';
import { enumChoices } from '../../i18n/enums';
import { sharedKey } from '../../i18n/sharedMessages';
import { RecordFormDialog } from '../../lists/RecordDialog';
import { type RowAction, RowActionButton } from '../../lists/RowActions';

const statusChoices = enumChoices('userStatus', USER_STATUSES);
const statusSaved = {
  created: sharedKey('user', 'statusChanged'),
  updated: sharedKey('user', 'statusChanged'),
};
const validateStatus = schemaValidator(statusSchema);

/**
 * Seed sections 2 and 4: 'Update Status' opens a modal with a status select, preselected with the toggled value
 * (ACTIVE -> INACTIVE, anything else -> ACTIVE), and Update / Cancel. Update sends `{ status }` alone through
 * account/update/{id}; then 'User Status Changed Successfully' and the list refetches.
 */
export const UpdateStatusButton = ({ record }: { record: RaRecord }) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <RowActionButton
        label="app.userStatus.button"
        ariaLabel={translate('app.userStatus.buttonRow', { name: titleCase(record.name) })}
        icon={<ToggleOnIcon fontSize="small" />}
        onClick={() => setOpen(true)}
      />
      {open && (
        <RecordFormDialog
          open
          record={record}
          onClose={() => setOpen(false)}
          texts="app.userStatus"
          maxWidth="xs"
          toValues={(row) => ({ status: toggledStatus(row?.status as UserStatus) })}
          validate={validateStatus}
          success={statusSaved}
        >
          <SelectInput source="status" choices={statusChoices} validate={requiredMark} />
        </RecordFormDialog>
      )}
    </>
  );
};

/** The Update Status row action, for the roles the role table lets change a status (userStatus.edit: ADMIN). */
export const useUpdateStatusAction = (): RowAction[] => {
  const { canAccess } = useCanAccess({ resource: 'userStatus', action: 'edit' });
  return useMemo(
    () => (canAccess ? [{ key: 'status', render: (record) => <UpdateStatusButton record={record} /> }] : []),
    [canAccess],
  );
};
