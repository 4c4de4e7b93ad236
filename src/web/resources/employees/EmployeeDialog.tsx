import { UserType } from '../../../shared/enums';
import type { RecordDialogProps } from '../../lists/RecordDialog';
import { PasswordInputs } from '../people/inputs';
import { UserFormDialog } from '../people/UserFormDialog';

/** Seed sections 2 and 5: the shared user fields, and password plus confirm password only when creating. */
export const EmployeeDialog = (props: RecordDialogProps) => (
  <UserFormDialog {...props} type={UserType.EMPLOYEE} texts="app.employees">
    {props.record?.id === undefined && <PasswordInputs />}
  </UserFormDialog>
);
