import { TextInput } from 'react-admin';
import { stateSchema } from '../../../shared/schemas/locations';
import { requiredMark, schemaValidator } from '../../forms/schemaValidator';
import { sharedKey } from '../../i18n/sharedMessages';
import { type RecordDialogProps, RecordFormDialog } from '../../lists/RecordDialog';

const validate = schemaValidator(stateSchema);

/** Seed sections 2 and 5: a name only, 'State name is required!'. */
export const StateDialog = (props: RecordDialogProps) => (
  <RecordFormDialog
    {...props}
    texts="app.states"
    toValues={(record) => ({ name: record?.name ?? '' })}
    validate={validate}
    success={{
      created: sharedKey('location', 'stateCreated'),
      updated: sharedKey('location', 'stateUpdated'),
    }}
  >
    <TextInput source="name" validate={requiredMark} />
  </RecordFormDialog>
);
