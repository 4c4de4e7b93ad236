import { Typography } from '@mui/material';
import { RadioButtonGroupInput, useCanAccess, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { APPROVAL_MSG } from '../../../shared/constants/approvals';
import { UserType } from '../../../shared/enums';
import type { RecordDialogProps } from '../../lists/RecordDialog';
import { staffTypeOf } from '../../providers/users';
import { SoleAdminNotice, usePendingText, useSoleAdmin } from '../approvals/SoleAdmin';
import { PasswordInputs } from '../people/inputs';
import { UserFormDialog } from '../people/UserFormDialog';

const ROLES = [
  { id: String(UserType.EMPLOYEE), name: 'app.employees.roleEmployee' },
  { id: String(UserType.ADMIN), name: 'app.employees.roleAdmin' },
];

/**
 * Employee or Admin (issues 43 and 51): an admin may ask for another admin, which another admin approves (the
 * approver receives its one-time password, so no password is chosen here). While the network has a single admin
 * nobody can approve it, and the choice says so, with the console command that adds one. Only for those the role
 * table lets create admins; the server refuses anyone else.
 */
const RoleInputs = () => {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'admins', action: 'create' });
  const soleAdmin = useSoleAdmin();
  const role = useWatch({ name: 'role' });
  const admin = canAccess && String(role) === String(UserType.ADMIN);
  return (
    <>
      {canAccess && (
        <RadioButtonGroupInput
          source="role"
          label="app.employees.role"
          choices={ROLES}
          helperText="app.employees.roleHelp"
          row
        />
      )}
      {admin ? (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('app.employees.adminApproval')}
          </Typography>
          {soleAdmin && <SoleAdminNotice />}
        </>
      ) : (
        <PasswordInputs />
      )}
    </>
  );
};

/**
 * Seed sections 2 and 5: the shared user fields, and password plus confirm password only when creating an employee;
 * an admin creating one chooses its role.
 */
export const EmployeeDialog = (props: RecordDialogProps) => {
  const pendingText = usePendingText();
  const creating = props.record?.id === undefined;
  return (
    <UserFormDialog
      {...props}
      type={UserType.EMPLOYEE}
      texts="app.employees"
      createdType={(values) => staffTypeOf(values, 'create')}
      createdMessage={(values) =>
        staffTypeOf(values, 'create') === UserType.ADMIN
          ? pendingText(APPROVAL_MSG.adminCreationPending)
          : undefined
      }
    >
      {creating && <RoleInputs />}
    </UserFormDialog>
  );
};
