import { Box } from '@mui/material';
import { RadioButtonGroupInput, TextInput } from 'react-admin';
import { OWNERSHIP_TYPES } from '../../../../shared/schemas/leads';
import { requiredMark } from '../../../forms/schemaValidator';
import { enumChoices } from '../../../i18n/enums';
import { LocationLookups } from './LocationLookups';
import { grid, numeric, Section } from './Section';

/**
 * Seed section 2, shop/business: establishment name, outlet address, landmark, pincode, state, district, tehsil,
 * mobile, telephone, email, ownership (Rented or Owned), years in location.
 */
export const BusinessSection = () => (
  <Section title="app.onboarding.sections.businessInfo">
    <Box sx={grid}>
      <TextInput source="businessInfo.establishmentName" validate={requiredMark} />
      <TextInput source="businessInfo.outletAddress" validate={requiredMark} />
      <TextInput source="businessInfo.businessLandmark" validate={requiredMark} />
      <TextInput source="businessInfo.pincode" slotProps={numeric} validate={requiredMark} />
      <LocationLookups
        state="businessInfo.stateId"
        district="businessInfo.districtId"
        tehsil="businessInfo.tehsilId"
      />
      <TextInput source="businessInfo.mobile" type="tel" autoComplete="tel" validate={requiredMark} />
      <TextInput source="businessInfo.telephone" type="tel" validate={requiredMark} />
      <TextInput source="businessInfo.email" type="email" autoComplete="email" validate={requiredMark} />
      <TextInput source="businessInfo.yearsInLocation" slotProps={numeric} validate={requiredMark} />
    </Box>
    <RadioButtonGroupInput
      source="businessInfo.ownershipType"
      choices={enumChoices('ownership', OWNERSHIP_TYPES)}
      validate={requiredMark}
      row
    />
  </Section>
);
