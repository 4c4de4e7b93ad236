import { DataTable } from 'react-admin';
import { csvExporter } from '../../lists/csv';
import { ModalList } from '../../lists/ModalList';
import { cell, userCsvColumns } from '../people/columns';
import { UpdateStatusColumn } from '../people/UpdateStatus';
import { MasterDistributorDialog } from './MasterDistributorDialog';

export const MASTER_DISTRIBUTOR_LIST_PATH = '/master/distributor/list';

export const masterDistributorExporter = csvExporter(
  userCsvColumns('masterDistributors', [
    'name',
    'mobile',
    'email',
    'district.name',
    'tehsil.name',
    'clearingBalance',
    'balance',
    'status',
    'createdAt',
  ]),
);

/**
 * Seed section 2, tier-user lists: Name, Mobile, Email, District, Tehsil, Clearing Balance, Balance, Status,
 * Created At; Update Status for ADMIN. The server keeps the list to the caller's network and sorts it newest first.
 */
export const MasterDistributorList = () => (
  <ModalList
    resource="masterDistributors"
    texts="app.masterDistributors"
    exporter={masterDistributorExporter}
    dialog={MasterDistributorDialog}
  >
    <DataTable.Col source="name" disableSort render={cell.name} />
    <DataTable.Col source="mobile" disableSort />
    <DataTable.Col source="email" disableSort />
    <DataTable.Col source="district.name" disableSort render={cell.district} />
    <DataTable.Col source="tehsil.name" disableSort render={cell.tehsil} />
    <DataTable.Col source="clearingBalance" disableSort align="right" render={cell.clearingBalance} />
    <DataTable.Col source="balance" disableSort align="right" render={cell.balance} />
    <DataTable.Col source="status" disableSort render={cell.status} />
    <DataTable.Col source="createdAt" disableSort render={cell.createdAt} />
    <UpdateStatusColumn />
  </ModalList>
);
