import { TextInput } from 'react-admin';
import { districtSchema } from '../../../shared/schemas/locations';
import { requiredMark, schemaValidator } from '../../forms/schemaValidator';
import { sharedKey } from '../../i18n/sharedMessages';
import { LookupInput } from '../../lists/LookupInput';
import { type RecordDialogProps, RecordFormDialog } from '../../lists/RecordDialog';

const validate = schemaValidator(districtSchema);

/** Seed sections 2 and 5: state typeahead and name, both required. */
export const DistrictDialog = (props: RecordDialogProps) => (
  <RecordFormDialog
    {...props}
    texts="app.districts"
    toValues={(record) => ({ stateId: record?.stateId ?? null, name: record?.name ?? '' })}
    validate={validate}
    success={{
      created: sharedKey('location', 'districtCreated'),
      updated: sharedKey('location', 'districtUpdated'),
    }}
  >
    <LookupInput
      source="stateId"
      reference="states"
      label="resources.districts.fields.stateId"
      validate={requiredMark}
    />
    <TextInput source="name" validate={requiredMark} />
  </RecordFormDialog>
);
