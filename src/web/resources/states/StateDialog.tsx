import { required, TextInput } from 'react-admin';
import { LOCATION_MSG } from '../../../shared/schemas/locations';
import { type RecordDialogProps, RecordFormDialog } from '../../lists/RecordDialog';

/** Seed sections 2 and 5: a name only, 'State name is required!'. */
export const StateDialog = (props: RecordDialogProps) => (
  <RecordFormDialog
    {...props}
    texts="app.states"
    toValues={(record) => ({ name: record?.name ?? '' })}
    success={{ created: LOCATION_MSG.stateCreated, updated: LOCATION_MSG.stateUpdated }}
  >
    <TextInput source="name" validate={required(LOCATION_MSG.stateNameRequired)} autoFocus />
  </RecordFormDialog>
);
