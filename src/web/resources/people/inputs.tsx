import { PasswordInput, TextInput, useResourceContext } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { LookupInput } from '../../lists/LookupInput';

/** The i18n key of a field label of the current user resource (all five share the same labels). */
const useFieldLabel = () => {
  const resource = useResourceContext();
  return (field: string) => `resources.${resource}.fields.${field}`;
};

const numeric = { inputMode: 'numeric' as const };

/** Seed section 2: the fields every user modal shares, before the location. */
export const UserTextFields = () => (
  <>
    <TextInput source="name" autoComplete="off" />
    <TextInput source="email" type="email" autoComplete="off" />
    <TextInput source="mobile" type="tel" autoComplete="off" slotProps={{ htmlInput: numeric }} />
    <TextInput source="userName" autoComplete="off" />
  </>
);

/**
 * District typeahead, then the tehsils of the chosen district (seed section 4: choosing a district refetches its
 * tehsils). The tehsil waits for a district and is cleared when the district changes.
 */
export const DistrictTehsilInputs = () => {
  const label = useFieldLabel();
  const { setValue } = useFormContext();
  const districtId = useWatch({ name: 'districtId' }) as string | null;
  return (
    <>
      <LookupInput
        source="districtId"
        reference="districts"
        label={label('districtId')}
        onChange={() => setValue('tehsilId', null, { shouldDirty: true })}
      />
      <LookupInput
        key={districtId ?? 'none'}
        source="tehsilId"
        reference="tehsils"
        label={label('tehsilId')}
        filter={districtId ? { districtId } : {}}
        disabled={!districtId}
      />
    </>
  );
};

/** The distributor modal's master distributor typeahead. */
export const MasterDistributorInput = () => {
  const label = useFieldLabel();
  return (
    <LookupInput
      source="masterDistributorId"
      reference="masterDistributors"
      label={label('masterDistributorId')}
    />
  );
};

/**
 * The retailer modal: a master distributor, then a distributor of that master distributor (seed section 4: choosing
 * a master distributor enables the distributor search limited to it). Changing the master distributor clears the
 * distributor.
 */
export const MasterAndDistributorInputs = () => {
  const label = useFieldLabel();
  const { setValue } = useFormContext();
  const masterDistributorId = useWatch({ name: 'masterDistributorId' }) as string | null;
  return (
    <>
      <LookupInput
        source="masterDistributorId"
        reference="masterDistributors"
        label={label('masterDistributorId')}
        onChange={() => setValue('distributorId', null, { shouldDirty: true })}
      />
      <LookupInput
        key={masterDistributorId ?? 'none'}
        source="distributorId"
        reference="distributors"
        label={label('distributorId')}
        filter={masterDistributorId ? { masterDistributorId } : {}}
        disabled={!masterDistributorId}
      />
    </>
  );
};

/** The customer modal's optional retailer typeahead. */
export const RetailerInput = () => {
  const label = useFieldLabel();
  return <LookupInput source="retailerId" reference="retailers" label={label('retailerId')} />;
};

/** The employee modal's passwords (create only), with the show/hide toggle. */
export const PasswordInputs = () => (
  <>
    <PasswordInput source="password" autoComplete="new-password" />
    <PasswordInput source="confirmPassword" autoComplete="new-password" />
  </>
);
