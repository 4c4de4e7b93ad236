import { DataTable } from 'react-admin';
import { csvExporter } from '../../lists/csv';
import { ModalList } from '../../lists/ModalList';
import { cell, userCsvColumns } from '../people/columns';
import { EmployeeDialog } from './EmployeeDialog';

export const EMPLOYEE_LIST_PATH = '/employee/list';

export const employeeExporter = csvExporter(
  userCsvColumns('employees', [
    'name',
    'mobile',
    'email',
    'district.name',
    'tehsil.name',
    'balance',
    'clearingBalance',
    'status',
    'createdAt',
  ]),
);

/**
 * Seed section 2, employee list (titled Employee): name, mobile, email, district, tehsil, balance, clearing
 * balance, status, created at; Add and Edit (ADMIN only, as the whole screen).
 */
export const EmployeeList = () => (
  <ModalList resource="employees" texts="app.employees" exporter={employeeExporter} dialog={EmployeeDialog}>
    <DataTable.Col source="name" disableSort render={cell.name} />
    <DataTable.Col source="mobile" disableSort />
    <DataTable.Col source="email" disableSort />
    <DataTable.Col source="district.name" disableSort render={cell.district} />
    <DataTable.Col source="tehsil.name" disableSort render={cell.tehsil} />
    <DataTable.Col source="balance" disableSort align="right" render={cell.balance} />
    <DataTable.Col source="clearingBalance" disableSort align="right" render={cell.clearingBalance} />
    <DataTable.Col source="status" disableSort render={cell.status} />
    <DataTable.Col source="createdAt" disableSort render={cell.createdAt} />
  </ModalList>
);
