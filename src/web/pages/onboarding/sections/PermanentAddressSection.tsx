import { Box, Checkbox, FormControlLabel } from '@mui/material';
import { useState } from 'react';
import { TextInput, useNotify, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { SAME_AS_ABOVE, sectionValidator } from '../../../forms/leadForm';
import { requiredMark } from '../../../forms/schemaValidator';
import { sharedKey } from '../../../i18n/sharedMessages';
import { LocationLookups } from './LocationLookups';
import { grid, numeric, Section } from './Section';

const validateBusiness = sectionValidator('businessInfo');

/**
 * 'Same as above' (seed sections 2, 4, 5): copies the business address, landmark, pincode, state, district, tehsil,
 * mobile, telephone and email into the permanent address. Refused and left unticked, with 'First fill all the
 * required fields of business information section!', while the business section is invalid; its field messages
 * are then shown.
 */
const SameAsAbove = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const { getValues, setValue } = useFormContext();
  const [checked, setChecked] = useState(false);

  const onChange = (_: unknown, tick: boolean) => {
    if (!tick) {
      setChecked(false);
      return;
    }
    const business = getValues('businessInfo') as Record<string, unknown>;
    if (Object.keys(validateBusiness(business) ?? {}).length) {
      setChecked(false);
      notify(sharedKey('lead', 'sameAsAboveRefused'), { type: 'error' });
      for (const field of Object.keys(business))
        setValue(`businessInfo.${field}`, business[field], { shouldTouch: true, shouldValidate: true });
      return;
    }
    for (const [from, to] of SAME_AS_ABOVE)
      setValue(`permanentAddress.${to}`, business[from], {
        shouldDirty: true,
        shouldTouch: true,
        shouldValidate: true,
      });
    setChecked(true);
  };

  return (
    <FormControlLabel
      control={<Checkbox checked={checked} onChange={onChange} />}
      label={translate('app.onboarding.sameAsAbove')}
      sx={{ mb: 1 }}
    />
  );
};

/** Seed section 2: the permanent address, with 'same as above'. */
export const PermanentAddressSection = () => (
  <Section title="app.onboarding.sections.permanentAddress">
    <SameAsAbove />
    <Box sx={grid}>
      <TextInput source="permanentAddress.residentialAddress" validate={requiredMark} />
      <TextInput source="permanentAddress.landmark" validate={requiredMark} />
      <TextInput
        source="permanentAddress.permanentAddressPincode"
        slotProps={numeric}
        validate={requiredMark}
      />
      <LocationLookups
        state="permanentAddress.permanentStateId"
        district="permanentAddress.permanentDistrictId"
        tehsil="permanentAddress.permanentTehsilId"
      />
      <TextInput source="permanentAddress.permanentMobile" type="tel" validate={requiredMark} />
      <TextInput source="permanentAddress.permanentTelephone" type="tel" validate={requiredMark} />
      <TextInput source="permanentAddress.permanentEmail" type="email" validate={requiredMark} />
    </Box>
  </Section>
);
