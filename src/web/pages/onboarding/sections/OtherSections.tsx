import { Box, Typography } from '@mui/material';
import { SelectInput, TextInput, useTranslate } from 'react-admin';
import { IDENTITY_DOCUMENTS } from '../../../../shared/schemas/leads';
import { requiredMark } from '../../../forms/schemaValidator';
import { enumChoices } from '../../../i18n/enums';
import { FileDrop } from '../FileDrop';
import { grid, numeric, Section } from './Section';

/** Seed section 2: outlet description, similar-arrangement details, PAN number, Aadhar number. */
export const OtherBusinessSection = () => (
  <Section title="app.onboarding.sections.otherBusinessInfo">
    <Box sx={grid}>
      <TextInput source="otherBusinessInfo.outletDescription" multiline validate={requiredMark} />
      <TextInput source="otherBusinessInfo.similarServiceDetails" multiline validate={requiredMark} />
      <TextInput source="otherBusinessInfo.panNumber" validate={requiredMark} />
      <TextInput source="otherBusinessInfo.aadharNumber" slotProps={numeric} validate={requiredMark} />
    </Box>
  </Section>
);

/** Seed section 2: bank name, account number, IFSC code. */
export const BankSection = () => (
  <Section title="app.onboarding.sections.bankInfo">
    <Box sx={grid}>
      <TextInput source="bankInfo.bankName" validate={requiredMark} />
      <TextInput source="bankInfo.accountNumber" slotProps={numeric} validate={requiredMark} />
      <TextInput source="bankInfo.ifscCode" validate={requiredMark} />
    </Box>
  </Section>
);

/** Seed section 2: document type (AADHAR, PAN, VOTERID, DL, OTHER), document number, document file. */
export const IdentitySection = () => (
  <Section title="app.onboarding.sections.identityProof">
    <Box sx={grid}>
      <SelectInput
        source="identityProof.type"
        choices={enumChoices('identityDocument', IDENTITY_DOCUMENTS)}
        validate={requiredMark}
      />
      <TextInput source="identityProof.documentNumber" validate={requiredMark} />
    </Box>
    <FileDrop source="document" label="app.onboarding.files.document" />
  </Section>
);

/** Seed section 2: the declaration and notes text. */
export const DeclarationSection = () => {
  const translate = useTranslate();
  return (
    <Section title="app.onboarding.sections.declaration">
      <Typography sx={{ mb: 1 }}>{translate('app.onboarding.declaration')}</Typography>
      <Typography variant="body2" color="text.secondary">
        {translate('app.onboarding.notes')}
      </Typography>
    </Section>
  );
};
