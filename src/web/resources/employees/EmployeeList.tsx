import { ModalList } from '../../lists/ModalList';
import { userColumns } from '../people/columns';
import { EmployeeDialog } from './EmployeeDialog';

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

/** Add and Edit (ADMIN only, as the whole screen). */
export const EmployeeList = () => (
  <ModalList resource="employees" texts="app.employees" columns={EMPLOYEE_COLUMNS} dialog={EmployeeDialog} />
);
