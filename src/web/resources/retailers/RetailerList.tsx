import { ModalList } from '../../lists/ModalList';
import { userColumns } from '../people/columns';
import { useUpdateStatusAction } from '../people/UpdateStatus';
import { useStatementAction } from '../statements/StatementAction';
import { RetailerDialog } from './RetailerDialog';

/**
 * Seed section 2, tier-user lists: Name, Mobile, Email, Distributor, District, Tehsil, Clearing Balance, Balance,
 * Status, Created At.
 */
export const RETAILER_COLUMNS = userColumns([
  'name',
  'mobile',
  'email',
  'distributor',
  'district',
  'tehsil',
  'panId',
  'clearingBalance',
  'balance',
  'status',
  'createdAt',
]);

/** Add for ADMIN only, Update Status for ADMIN. Tier users see the retailers of their network. */
export const RetailerList = () => {
  const status = useUpdateStatusAction();
  const statement = useStatementAction();
  return (
    <ModalList
      resource="retailers"
      importKind="retailers"
      texts="app.retailers"
      columns={RETAILER_COLUMNS}
      dialog={RetailerDialog}
      rowActions={[...statement, ...status]}
    />
  );
};
