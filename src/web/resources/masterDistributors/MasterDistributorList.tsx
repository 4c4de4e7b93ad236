import { ModalList } from '../../lists/ModalList';
import { userColumns } from '../people/columns';
import { useUpdateStatusAction } from '../people/UpdateStatus';
import { useStatementAction } from '../statements/StatementAction';
import { MasterDistributorDialog } from './MasterDistributorDialog';

/** Seed section 2, tier-user lists: Name, Mobile, Email, District, Tehsil, Clearing Balance, Balance, Status, Created At. */
export const MASTER_DISTRIBUTOR_COLUMNS = userColumns([
  'name',
  'mobile',
  'email',
  'district',
  'tehsil',
  'panId',
  'clearingBalance',
  'balance',
  'status',
  'createdAt',
]);

/** Update Status for ADMIN. The server keeps the list to the caller's network and sorts it newest first. */
export const MasterDistributorList = () => {
  const status = useUpdateStatusAction();
  const statement = useStatementAction();
  return (
    <ModalList
      resource="masterDistributors"
      importKind="master-distributors"
      texts="app.masterDistributors"
      columns={MASTER_DISTRIBUTOR_COLUMNS}
      dialog={MasterDistributorDialog}
      rowActions={[...statement, ...status]}
    />
  );
};
