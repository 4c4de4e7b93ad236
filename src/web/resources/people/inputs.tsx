import { PasswordInput, TextInput, useResourceContext } from 'react-admin';
import { ChainedLookups } from '../../forms/ChainedLookups';
import { requiredMark } from '../../forms/schemaValidator';
import { LookupInput } from '../../lists/LookupInput';

/** The i18n key of a field label of the current user resource (all five share the same labels). */
const useFieldLabel = () => {
  const resource = useResourceContext();
  return (field: string) => `resources.${resource}.fields.${field}`;
};

const numeric = { inputMode: 'numeric' as const };
const capitals = { maxLength: 10, style: { textTransform: 'uppercase' as const } };

/** A tier user's PAN (AAAAA9999A), optional: without one, TDS is withheld at the higher rate (issue 43). */
export const PanInput = () => (
  <TextInput source="panId" autoComplete="off" slotProps={{ htmlInput: capitals }} />
);

/** Seed section 2: the fields every user modal shares, before the location (all required, seed section 5). */
export const UserTextFields = () => (
  <>
    <TextInput source="name" autoComplete="off" validate={requiredMark} />
    <TextInput source="email" type="email" autoComplete="off" validate={requiredMark} />
    <TextInput
      source="mobile"
      type="tel"
      autoComplete="off"
      slotProps={{ htmlInput: numeric }}
      validate={requiredMark}
    />
    <TextInput source="userName" autoComplete="off" validate={requiredMark} />
  </>
);

/** District, then the tehsils of the chosen district (seed section 4: choosing a district refetches its tehsils). */
export const DistrictTehsilInputs = () => {
  const label = useFieldLabel();
  return (
    <ChainedLookups
      levels={[
        { source: 'districtId', reference: 'districts', label: label('districtId'), validate: requiredMark },
        {
          source: 'tehsilId',
          reference: 'tehsils',
          label: label('tehsilId'),
          parentFilter: 'districtId',
          validate: requiredMark,
        },
      ]}
    />
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
      validate={requiredMark}
    />
  );
};

/**
 * The retailer modal: a master distributor, then a distributor of that master distributor (seed section 4: choosing
 * a master distributor enables the distributor search limited to it).
 */
export const MasterAndDistributorInputs = () => {
  const label = useFieldLabel();
  return (
    <ChainedLookups
      levels={[
        {
          source: 'masterDistributorId',
          reference: 'masterDistributors',
          label: label('masterDistributorId'),
          validate: requiredMark,
        },
        {
          source: 'distributorId',
          reference: 'distributors',
          label: label('distributorId'),
          parentFilter: 'masterDistributorId',
          validate: requiredMark,
        },
      ]}
    />
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
    <PasswordInput source="password" autoComplete="new-password" validate={requiredMark} />
    <PasswordInput source="confirmPassword" autoComplete="new-password" validate={requiredMark} />
  </>
);
