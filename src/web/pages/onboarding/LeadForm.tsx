import { Link, Stack } from '@mui/material';
import { useEffect, useMemo, useRef } from 'react';
import { Form, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useFormContext, useFormState } from 'react-hook-form';
import { Link as RouterLink } from 'react-router-dom';
import type { LeadType } from '../../../shared/schemas/leads';
import {
  emptyLeadForm,
  invalidSubmitMessage,
  type LeadFormValues,
  toLeadFormData,
  validateLeadForm,
} from '../../forms/leadForm';
import { SubmitButton } from '../../forms/SubmitButton';
import { useSendForm } from '../../forms/useSendForm';
import { sharedKey } from '../../i18n/sharedMessages';
import type { AppDataProvider } from '../../providers/dataProvider';
import { ApplicantSection } from './sections/ApplicantSection';
import { BusinessSection } from './sections/BusinessSection';
import {
  BankSection,
  DeclarationSection,
  IdentitySection,
  OtherBusinessSection,
} from './sections/OtherSections';
import { PermanentAddressSection } from './sections/PermanentAddressSection';

/**
 * Seed section 5: an invalid submit toasts 'All fields are required to proceed for verification' (or, with every field
 * right, the missing document, then the missing photo). Judged from the values: the form's errors also hold the
 * server's refusals.
 */
const InvalidFormNotice = () => {
  const { submitCount } = useFormState();
  const { getValues } = useFormContext<LeadFormValues>();
  const notify = useNotify();
  const seen = useRef(submitCount);
  useEffect(() => {
    if (submitCount <= seen.current) return;
    seen.current = submitCount;
    const message = invalidSubmitMessage(getValues());
    if (message) notify(message, { type: 'error' });
  }, [submitCount, getValues, notify]);
  return null;
};

/**
 * The application form: its sections, and Submit with a link back to Welcome. Sent as multipart `leads/create`;
 * a refusal shows in the 'Error!!!' toast and on the fields the server names. Remounted (a fresh key) after a
 * successful submit, which empties every field and file.
 */
export const LeadForm = ({
  leadType,
  onSubmitted,
}: {
  leadType: LeadType;
  onSubmitted: (message: string) => void;
}) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const defaultValues = useMemo(emptyLeadForm, []);
  const submit = useSendForm(
    (values) => dataProvider.createLead(toLeadFormData(values as LeadFormValues, leadType)),
    sharedKey('lead', 'thankYou'),
    (_answer, thanks) => onSubmitted(thanks),
  );

  return (
    <Form
      defaultValues={defaultValues}
      validate={validateLeadForm}
      onSubmit={submit}
      mode="onTouched"
      noValidate
      disableInvalidFormNotification
    >
      <InvalidFormNotice />
      <Stack spacing={2}>
        <ApplicantSection />
        <BusinessSection />
        <PermanentAddressSection />
        <OtherBusinessSection />
        <BankSection />
        <IdentitySection />
        <DeclarationSection />
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <SubmitButton label="app.onboarding.submit" size="large" />
          <Link component={RouterLink} to="/welcome">
            {translate('app.onboarding.backToWelcome')}
          </Link>
        </Stack>
      </Stack>
    </Form>
  );
};
