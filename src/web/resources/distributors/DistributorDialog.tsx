import { UserType } from '../../../shared/enums';
import type { RecordDialogProps } from '../../lists/RecordDialog';
import { MasterDistributorInput, PanInput } from '../people/inputs';
import { UserFormDialog } from '../people/UserFormDialog';

/** Seed section 2: the shared user fields and a master distributor typeahead (required). */
export const DistributorDialog = (props: RecordDialogProps) => (
  <UserFormDialog {...props} type={UserType.DISTRIBUTOR} texts="app.distributors">
    <MasterDistributorInput />
    <PanInput />
  </UserFormDialog>
);
