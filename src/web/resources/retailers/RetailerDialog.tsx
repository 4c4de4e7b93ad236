import { UserType } from '../../../shared/enums';
import type { RecordDialogProps } from '../../lists/RecordDialog';
import { MasterAndDistributorInputs, PanInput } from '../people/inputs';
import { UserFormDialog } from '../people/UserFormDialog';

/**
 * Seed sections 2 and 4: the shared user fields, a master distributor typeahead and a distributor typeahead
 * limited to the chosen master distributor (both required).
 */
export const RetailerDialog = (props: RecordDialogProps) => (
  <UserFormDialog {...props} type={UserType.RETAILER} texts="app.retailers">
    <MasterAndDistributorInputs />
    <PanInput />
  </UserFormDialog>
);
