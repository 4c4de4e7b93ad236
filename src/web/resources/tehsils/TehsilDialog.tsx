import { required, TextInput } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { MSG } from '../../../shared/messages';
import { LOCATION_MSG } from '../../../shared/schemas/locations';
import { LookupInput } from '../../lists/LookupInput';
import { type RecordDialogProps, RecordFormDialog } from '../../lists/RecordDialog';

const requiredField = required(MSG.required);

/**
 * Seed section 4: choosing a state refetches the districts of that state (the district typeahead filters by
 * stateId) and clears a district chosen for another state. The district waits for a state.
 */
const StateAndDistrict = () => {
  const { setValue } = useFormContext();
  const stateId = useWatch({ name: 'stateId' }) as string | null;
  return (
    <>
      <LookupInput
        source="stateId"
        reference="states"
        label="resources.tehsils.fields.stateId"
        validate={requiredField}
        onChange={() => setValue('districtId', null, { shouldDirty: true })}
      />
      <LookupInput
        key={stateId ?? 'none'}
        source="districtId"
        reference="districts"
        label="resources.tehsils.fields.districtId"
        filter={stateId ? { stateId } : {}}
        disabled={!stateId}
        validate={requiredField}
      />
    </>
  );
};

/** Seed sections 2 and 5: state typeahead, district typeahead and name, all required. */
export const TehsilDialog = (props: RecordDialogProps) => (
  <RecordFormDialog
    {...props}
    texts="app.tehsils"
    toValues={(record) => ({
      stateId: record?.stateId ?? null,
      districtId: record?.districtId ?? null,
      name: record?.name ?? '',
    })}
    success={{ created: LOCATION_MSG.tehsilCreated, updated: LOCATION_MSG.tehsilUpdated }}
  >
    <StateAndDistrict />
    <TextInput source="name" validate={requiredField} />
  </RecordFormDialog>
);
