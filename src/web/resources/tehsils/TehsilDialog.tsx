import { TextInput } from 'react-admin';
import { tehsilSchema } from '../../../shared/schemas/locations';
import { ChainedLookups } from '../../forms/ChainedLookups';
import { requiredMark, schemaValidator } from '../../forms/schemaValidator';
import { sharedKey } from '../../i18n/sharedMessages';
import { type RecordDialogProps, RecordFormDialog } from '../../lists/RecordDialog';

const validate = schemaValidator(tehsilSchema);

/**
 * Seed sections 2, 4 and 5: state typeahead, district typeahead and name, all required. Choosing a state refetches
 * the districts of that state and clears a district chosen for another state.
 */
export const TehsilDialog = (props: RecordDialogProps) => (
  <RecordFormDialog
    {...props}
    texts="app.tehsils"
    toValues={(record) => ({
      stateId: record?.stateId ?? null,
      districtId: record?.districtId ?? null,
      name: record?.name ?? '',
    })}
    validate={validate}
    success={{
      created: sharedKey('location', 'tehsilCreated'),
      updated: sharedKey('location', 'tehsilUpdated'),
    }}
  >
    <ChainedLookups
      levels={[
        {
          source: 'stateId',
          reference: 'states',
          label: 'resources.tehsils.fields.stateId',
          validate: requiredMark,
        },
        {
          source: 'districtId',
          reference: 'districts',
          label: 'resources.tehsils.fields.districtId',
          parentFilter: 'stateId',
          validate: requiredMark,
        },
      ]}
    />
    <TextInput source="name" validate={requiredMark} />
  </RecordFormDialog>
);
