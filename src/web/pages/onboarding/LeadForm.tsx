import { Link, Stack } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
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
import { serverFieldErrors } from '../../forms/serverErrors';
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
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const defaultValues = useMemo(emptyLeadForm, []);
  const { mutateAsync } = useMutation({ mutationFn: (form: FormData) => dataProvider.createLead(form) });

  const submit = async (values: Record<string, unknown>) => {
    try {
      const { message } = await mutateAsync(toLeadFormData(values as LeadFormValues, leadType));
      const thanks = message || sharedKey('lead', 'thankYou');
      notify(thanks, { type: 'success' });
      onSubmitted(thanks);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
      return serverFieldErrors(error);
    }
  };

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
