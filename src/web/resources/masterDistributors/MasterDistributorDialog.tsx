import { UserType } from '../../../shared/enums';
import type { RecordDialogProps } from '../../lists/RecordDialog';
import { UserFormDialog } from '../people/UserFormDialog';

/** Seed section 2: the shared user fields only (the server stores the master distributor defaults). */
export const MasterDistributorDialog = (props: RecordDialogProps) => (
  <UserFormDialog {...props} type={UserType.MASTER_DISTRIBUTOR} texts="app.masterDistributors" />
);
