import ToggleOnIcon from '@mui/icons-material/ToggleOn';
import { Button } from '@mui/material';
import { useState } from 'react';
import { DataTable, type RaRecord, required, SelectInput, useCanAccess, useTranslate } from 'react-admin';
import { toggledStatus, USER_STATUSES, type UserStatus } from '../../../shared/enums';
import { titleCase } from '../../../shared/format';
import { MSG } from '../../../shared/messages';
import { USER_MSG } from '../../../shared/schemas/users';
import { RecordFormDialog } from '../../lists/RecordDialog';

const statusChoices = USER_STATUSES.map((id) => ({ id, name: id }));
const statusSaved = { created: USER_MSG.statusChanged, updated: USER_MSG.statusChanged };

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
      <Button
        size="small"
        startIcon={<ToggleOnIcon />}
        aria-label={translate('app.userStatus.buttonRow', { name: titleCase(record.name) })}
        onClick={() => setOpen(true)}
      >
        {translate('app.userStatus.button')}
      </Button>
      {open && (
        <RecordFormDialog
          open
          record={record}
          onClose={() => setOpen(false)}
          texts="app.userStatus"
          maxWidth="xs"
          toValues={(row) => ({ status: toggledStatus(row?.status as UserStatus) })}
          success={statusSaved}
        >
          <SelectInput source="status" choices={statusChoices} validate={required(MSG.required)} />
        </RecordFormDialog>
      )}
    </>
  );
};

/** The Update Status column, for the roles the role table lets change a status (userStatus.edit: ADMIN). */
export const UpdateStatusColumn = () => {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'userStatus', action: 'edit' });
  if (!canAccess) return null;
  return (
    <DataTable.Col
      label={translate('app.userStatus.column')}
      disableSort
      render={(record: RaRecord) => <UpdateStatusButton record={record} />}
    />
  );
};
