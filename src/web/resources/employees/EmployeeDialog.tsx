import { RadioButtonGroupInput, useCanAccess } from 'react-admin';
import { UserType } from '../../../shared/enums';
import type { RecordDialogProps } from '../../lists/RecordDialog';
import { staffTypeOf } from '../../providers/users';
import { PasswordInputs } from '../people/inputs';
import { UserFormDialog } from '../people/UserFormDialog';

const ROLES = [
  { id: String(UserType.EMPLOYEE), name: 'app.employees.roleEmployee' },
  { id: String(UserType.ADMIN), name: 'app.employees.roleAdmin' },
];

/**
 * Employee or Admin (issue 43): an admin may create another admin, a second person to approve its own payouts.
 * Only for those the role table lets create admins; the server refuses anyone else.
 */
const RoleInput = () => {
  const { canAccess } = useCanAccess({ resource: 'admins', action: 'create' });
  if (!canAccess) return null;
  return (
    <RadioButtonGroupInput
      source="role"
      label="app.employees.role"
      choices={ROLES}
      helperText="app.employees.roleHelp"
      row
    />
  );
};

/**
 * Seed sections 2 and 5: the shared user fields, and password plus confirm password only when creating; an admin
 * creating one chooses its role.
 */
export const EmployeeDialog = (props: RecordDialogProps) => {
  const creating = props.record?.id === undefined;
  return (
    <UserFormDialog
      {...props}
      type={UserType.EMPLOYEE}
      texts="app.employees"
      createdType={(values) => staffTypeOf(values, 'create')}
    >
      {creating && <RoleInput />}
      {creating && <PasswordInputs />}
    </UserFormDialog>
  );
};
