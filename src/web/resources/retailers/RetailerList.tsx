import { DataTable } from 'react-admin';
import { csvExporter } from '../../lists/csv';
import { ModalList } from '../../lists/ModalList';
import { cell, userCsvColumns } from '../people/columns';
import { UpdateStatusColumn } from '../people/UpdateStatus';
import { RetailerDialog } from './RetailerDialog';

export const RETAILER_LIST_PATH = '/retailer/list';

export const retailerExporter = csvExporter(
  userCsvColumns('retailers', [
    'name',
    'mobile',
    'email',
    'distributor.name',
    'district.name',
    'tehsil.name',
    'clearingBalance',
    'balance',
    'status',
    'createdAt',
  ]),
);

/**
 * Seed section 2, tier-user lists: Name, Mobile, Email, Distributor, District, Tehsil, Clearing Balance, Balance,
 * Status, Created At; Add for ADMIN only, Update Status for ADMIN. Tier users see the retailers of their network.
 */
export const RetailerList = () => (
  <ModalList resource="retailers" texts="app.retailers" exporter={retailerExporter} dialog={RetailerDialog}>
    <DataTable.Col source="name" disableSort render={cell.name} />
    <DataTable.Col source="mobile" disableSort />
    <DataTable.Col source="email" disableSort />
    <DataTable.Col source="distributor.name" disableSort render={cell.distributor} />
    <DataTable.Col source="district.name" disableSort render={cell.district} />
    <DataTable.Col source="tehsil.name" disableSort render={cell.tehsil} />
    <DataTable.Col source="clearingBalance" disableSort align="right" render={cell.clearingBalance} />
    <DataTable.Col source="balance" disableSort align="right" render={cell.balance} />
    <DataTable.Col source="status" disableSort render={cell.status} />
    <DataTable.Col source="createdAt" disableSort render={cell.createdAt} />
    <UpdateStatusColumn />
  </ModalList>
);
