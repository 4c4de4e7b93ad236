import { DataTable } from 'react-admin';
import { csvExporter } from '../../lists/csv';
import { ModalList } from '../../lists/ModalList';
import { cell, userCsvColumns } from '../people/columns';
import { UpdateStatusColumn } from '../people/UpdateStatus';
import { DistributorDialog } from './DistributorDialog';

export const DISTRIBUTOR_LIST_PATH = '/distributor/list';

export const distributorExporter = csvExporter(
  userCsvColumns('distributors', [
    'name',
    'mobile',
    'email',
    'masterDistributor.name',
    'district.name',
    'tehsil.name',
    'balance',
    'clearingBalance',
    'status',
    'createdAt',
  ]),
);

/**
 * Seed section 2, tier-user lists: Name, Mobile, Email, Master Distributor, District, Tehsil, Balance, Clearing
 * Balance, Status, Created At; Add for ADMIN only, Update Status for ADMIN. A master distributor sees its own.
 */
export const DistributorList = () => (
  <ModalList
    resource="distributors"
    texts="app.distributors"
    exporter={distributorExporter}
    dialog={DistributorDialog}
  >
    <DataTable.Col source="name" disableSort render={cell.name} />
    <DataTable.Col source="mobile" disableSort />
    <DataTable.Col source="email" disableSort />
    <DataTable.Col source="masterDistributor.name" disableSort render={cell.masterDistributor} />
    <DataTable.Col source="district.name" disableSort render={cell.district} />
    <DataTable.Col source="tehsil.name" disableSort render={cell.tehsil} />
    <DataTable.Col source="balance" disableSort align="right" render={cell.balance} />
    <DataTable.Col source="clearingBalance" disableSort align="right" render={cell.clearingBalance} />
    <DataTable.Col source="status" disableSort render={cell.status} />
    <DataTable.Col source="createdAt" disableSort render={cell.createdAt} />
    <UpdateStatusColumn />
  </ModalList>
);
