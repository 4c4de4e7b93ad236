import { DataTable } from 'react-admin';
import { csvExporter } from '../../lists/csv';
import { ModalList } from '../../lists/ModalList';
import { cell, userCsvColumns } from '../people/columns';
import { UpdateStatusColumn } from '../people/UpdateStatus';
import { SelectProductColumn } from '../sales/SelectProduct';
import { CustomerDialog } from './CustomerDialog';

export const CUSTOMER_LIST_PATH = '/customer/list';

export const customerExporter = csvExporter(
  userCsvColumns('customers', [
    'name',
    'mobile',
    'email',
    'panId',
    'aadharId',
    'retailer.name',
    'district.name',
    'tehsil.name',
    'status',
    'createdAt',
  ]),
);

/**
 * Seed section 2, customer list (titled Customers): name, mobile, email, PAN id, Aadhar id (masked by the
 * server), retailer, district, tehsil, created at; Select Product for the roles that sell (ADMIN, EMPLOYEE,
 * RETAILER); Update Status for ADMIN; Edit. Unlike the seed, page changes do page.
 */
export const CustomerList = () => (
  <ModalList resource="customers" texts="app.customers" exporter={customerExporter} dialog={CustomerDialog}>
    <DataTable.Col source="name" disableSort render={cell.name} />
    <DataTable.Col source="mobile" disableSort />
    <DataTable.Col source="email" disableSort />
    <DataTable.Col source="panId" disableSort />
    <DataTable.Col source="aadharId" disableSort />
    <DataTable.Col source="retailer.name" disableSort render={cell.retailer} />
    <DataTable.Col source="district.name" disableSort render={cell.district} />
    <DataTable.Col source="tehsil.name" disableSort render={cell.tehsil} />
    <DataTable.Col source="createdAt" disableSort render={cell.createdAt} />
    <SelectProductColumn />
    <UpdateStatusColumn />
  </ModalList>
);
