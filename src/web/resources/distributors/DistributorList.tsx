import { ModalList } from '../../lists/ModalList';
import { userColumns } from '../people/columns';
import { useUpdateStatusAction } from '../people/UpdateStatus';
import { useStatementAction } from '../statements/StatementAction';
import { DistributorDialog } from './DistributorDialog';

/**
 * Seed section 2, tier-user lists: Name, Mobile, Email, Master Distributor, District, Tehsil, Balance, Clearing
 * Balance, Status, Created At.
 */
export const DISTRIBUTOR_COLUMNS = userColumns([
  'name',
  'mobile',
  'email',
  'masterDistributor',
  'district',
  'tehsil',
  'panId',
  'balance',
  'clearingBalance',
  'status',
  'createdAt',
]);

/** Add for ADMIN only, Update Status for ADMIN. A master distributor sees its own. */
export const DistributorList = () => {
  const status = useUpdateStatusAction();
  const statement = useStatementAction();
  return (
    <ModalList
      resource="distributors"
      importKind="distributors"
      texts="app.distributors"
      columns={DISTRIBUTOR_COLUMNS}
      dialog={DistributorDialog}
      rowActions={[...statement, ...status]}
    />
  );
};
