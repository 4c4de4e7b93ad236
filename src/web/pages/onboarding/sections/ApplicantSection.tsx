import { Box } from '@mui/material';
import { RadioButtonGroupInput, TextInput } from 'react-admin';
import { GENDERS } from '../../../../shared/schemas/leads';
import { requiredMark } from '../../../forms/schemaValidator';
import { enumChoices } from '../../../i18n/enums';
import { FileDrop } from '../FileDrop';
import { grid, Section } from './Section';

/** Seed section 2, applicant: picture upload, name, gender (Male or Female, default Male), education. */
export const ApplicantSection = () => (
  <Section title="app.onboarding.sections.applicantInfo">
    <FileDrop source="picture" label="app.onboarding.files.picture" />
    <Box sx={{ ...grid, mt: 2 }}>
      <TextInput source="applicantInfo.name" autoComplete="name" validate={requiredMark} />
      <TextInput source="applicantInfo.education" validate={requiredMark} />
    </Box>
    <RadioButtonGroupInput
      source="applicantInfo.gender"
      choices={enumChoices('gender', GENDERS)}
      validate={requiredMark}
      row
    />
  </Section>
);
