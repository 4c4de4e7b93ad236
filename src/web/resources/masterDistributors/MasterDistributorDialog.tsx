import { UserType } from '../../../shared/enums';
import type { RecordDialogProps } from '../../lists/RecordDialog';
import { PanInput } from '../people/inputs';
import { UserFormDialog } from '../people/UserFormDialog';

/** Seed section 2: the shared user fields (the server stores the master distributor defaults) and the optional PAN. */
export const MasterDistributorDialog = (props: RecordDialogProps) => (
  <UserFormDialog {...props} type={UserType.MASTER_DISTRIBUTOR} texts="app.masterDistributors">
    <PanInput />
  </UserFormDialog>
);
