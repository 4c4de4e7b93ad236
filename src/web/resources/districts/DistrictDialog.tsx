import { required, TextInput } from 'react-admin';
import { MSG } from '../../../shared/messages';
import { LOCATION_MSG } from '../../../shared/schemas/locations';
import { LookupInput } from '../../lists/LookupInput';
import { type RecordDialogProps, RecordFormDialog } from '../../lists/RecordDialog';

/** Seed sections 2 and 5: state typeahead and name, both required. */
export const DistrictDialog = (props: RecordDialogProps) => (
  <RecordFormDialog
    {...props}
    texts="app.districts"
    toValues={(record) => ({ stateId: record?.stateId ?? null, name: record?.name ?? '' })}
    success={{ created: LOCATION_MSG.districtCreated, updated: LOCATION_MSG.districtUpdated }}
  >
    <LookupInput
      source="stateId"
      reference="states"
      label="resources.districts.fields.stateId"
      validate={required(MSG.required)}
    />
    <TextInput source="name" validate={required(MSG.required)} />
  </RecordFormDialog>
);
