import { required, TextInput } from 'react-admin';
import { MSG } from '../../../shared/messages';
import { CATALOG_MSG } from '../../../shared/schemas/catalog';
import { type RecordDialogProps, RecordFormDialog } from '../../lists/RecordDialog';

/** Seed sections 2 and 5: a name only, required. */
export const ProviderDialog = (props: RecordDialogProps) => (
  <RecordFormDialog
    {...props}
    texts="app.providers"
    toValues={(record) => ({ name: record?.name ?? '' })}
    success={{ created: CATALOG_MSG.providerCreated, updated: CATALOG_MSG.providerUpdated }}
  >
    <TextInput source="name" validate={required(MSG.required)} autoFocus />
  </RecordFormDialog>
);
