import { ModalList } from '../../lists/ModalList';
import { userColumns } from '../people/columns';
import { EmployeeDialog } from './EmployeeDialog';
import { usePromoteAction } from './PromoteAction';

/**
 * Seed section 2, employee list (titled Employee): name, mobile, email, district, tehsil, balance, clearing
 * balance, status, created at.
 */
export const EMPLOYEE_COLUMNS = userColumns([
  'name',
  'mobile',
  'email',
  'district',
  'tehsil',
  'balance',
  'clearingBalance',
  'status',
  'createdAt',
]);

/** Add and Edit (ADMIN only, as the whole screen), and Make Admin (a command another admin approves). */
export const EmployeeList = () => {
  const promote = usePromoteAction();
  return (
    <>
      <ModalList
        resource="employees"
        texts="app.employees"
        columns={EMPLOYEE_COLUMNS}
        dialog={EmployeeDialog}
        rowActions={promote.action}
      />
      {promote.dialog}
    </>
  );
};
