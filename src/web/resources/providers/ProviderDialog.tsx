import { TextInput } from 'react-admin';
import { providerSchema } from '../../../shared/schemas/catalog';
import { requiredMark, schemaValidator } from '../../forms/schemaValidator';
import { sharedKey } from '../../i18n/sharedMessages';
import { type RecordDialogProps, RecordFormDialog } from '../../lists/RecordDialog';

const validate = schemaValidator(providerSchema);

/** Seed sections 2 and 5: a name only, required. */
export const ProviderDialog = (props: RecordDialogProps) => (
  <RecordFormDialog
    {...props}
    texts="app.providers"
    toValues={(record) => ({ name: record?.name ?? '' })}
    validate={validate}
    success={{
      created: sharedKey('catalog', 'providerCreated'),
      updated: sharedKey('catalog', 'providerUpdated'),
    }}
  >
    <TextInput source="name" validate={requiredMark} />
  </RecordFormDialog>
);
