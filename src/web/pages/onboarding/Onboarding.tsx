import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  CircularProgress,
  FormControlLabel,
  Link,
  Stack,
  Typography,
} from '@mui/material';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import {
  Form,
  HttpError,
  RadioButtonGroupInput,
  ResourceContextProvider,
  SelectInput,
  TextInput,
  useDataProvider,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useFormContext, useFormState } from 'react-hook-form';
import { Link as RouterLink } from 'react-router-dom';
import {
  GENDERS,
  IDENTITY_DOCUMENTS,
  LEAD_MSG,
  type LeadFileField,
  type LeadType,
  OWNERSHIP_TYPES,
} from '../../../shared/schemas/leads';
import type { AppDataProvider } from '../../providers/dataProvider';
import { FileDrop } from './FileDrop';
import { LocationLookups } from './LocationLookups';
import {
  emptyLeadForm,
  type LeadFiles,
  type LeadFormValues,
  SAME_AS_ABOVE,
  sectionErrors,
  serverErrors,
  toLeadFormData,
  validateLeadForm,
} from './leadForm';

/** The seed's routes of the two onboarding forms (section 2). */
export const ONBOARDING_PATHS: Record<LeadType, string> = {
  RETAILER: '/onboarding/retailer',
  DISTRIBUTOR: '/onboarding/distributor',
};

const plain = (values: readonly string[]) => values.map((id) => ({ id, name: id }));
const grid = { display: 'grid', columnGap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;
const numeric = { htmlInput: { inputMode: 'numeric' as const } };

const Section = ({ title, children }: { title: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Card component="section" aria-label={translate(title)} variant="outlined">
      <CardContent>
        <Typography component="h2" variant="h6" sx={{ mb: 1.5 }}>
          {translate(title)}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
};

/** Seed section 5: an invalid submit toasts 'All fields are required to proceed for verification'. */
const InvalidFormNotice = () => {
  const { submitCount } = useFormState();
  const { getValues } = useFormContext<LeadFormValues>();
  const notify = useNotify();
  const seen = useRef(submitCount);
  useEffect(() => {
    if (submitCount <= seen.current) return;
    seen.current = submitCount;
    // Judged from the values, not formState.errors, which also holds the server's refusals.
    if (Object.keys(validateLeadForm(getValues())).length) notify(LEAD_MSG.allRequired, { type: 'error' });
  }, [submitCount, getValues, notify]);
  return null;
};

/**
 * 'Same as above' (seed sections 2, 4, 5): copies the business address, landmark, pincode, state, district,
 * tehsil, mobile, telephone and email into the permanent address. Refused and left unticked, with
 * 'First fill all the required fields of business information section!', while the business section is
 * invalid; its field messages are then shown.
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
    if (Object.keys(sectionErrors('businessInfo', business)).length) {
      setChecked(false);
      notify(LEAD_MSG.sameAsAboveRefused, { type: 'error' });
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

const SubmitButton = () => {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  return (
    <Button
      type="submit"
      variant="contained"
      size="large"
      disabled={isSubmitting}
      startIcon={isSubmitting ? <CircularProgress size={18} color="inherit" /> : undefined}
    >
      {translate(isSubmitting ? 'app.onboarding.submitting' : 'app.onboarding.submit')}
    </Button>
  );
};

type FileErrors = Partial<Record<LeadFileField, string>>;

const MISSING: Record<LeadFileField, string> = {
  picture: LEAD_MSG.photoRequired,
  document: LEAD_MSG.documentRequired,
};

/** A dropzone inside the form: its 'required' message shows once a submit was tried. */
const FormFile = ({
  field,
  label,
  files,
  errors,
  onFile,
  onError,
}: {
  field: LeadFileField;
  label: string;
  files: LeadFiles;
  errors: FileErrors;
  onFile: (field: LeadFileField, file: File | null) => void;
  onError: (field: LeadFileField, message: string) => void;
}) => {
  const { submitCount } = useFormState();
  const error = errors[field] ?? (submitCount > 0 && !files[field] ? MISSING[field] : undefined);
  return (
    <FileDrop
      field={field}
      label={label}
      file={files[field]}
      onChange={(file) => onFile(field, file)}
      error={error}
      onReject={(message) => onError(field, message)}
    />
  );
};

/** The form itself; remounted (a fresh key) after a successful submit, which resets every field and file. */
const LeadForm = ({
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
  const [files, setFiles] = useState<LeadFiles>({ picture: null, document: null });
  const [fileErrors, setFileErrors] = useState<FileErrors>({});

  const onFile = (field: LeadFileField, file: File | null) => {
    setFiles((current) => ({ ...current, [field]: file }));
    setFileErrors((current) => ({ ...current, [field]: undefined }));
  };
  const onFileError = (field: LeadFileField, message: string) => {
    setFiles((current) => ({ ...current, [field]: null }));
    setFileErrors((current) => ({ ...current, [field]: message }));
    notify(message, { type: 'error' });
  };

  /** Runs once every field is valid (react-admin's Form); the files are checked here. */
  const submit = async (values: Record<string, unknown>) => {
    if (!files.document) {
      notify(LEAD_MSG.documentRequired, { type: 'error' });
      return;
    }
    if (!files.picture) {
      notify(LEAD_MSG.photoRequired, { type: 'error' });
      return;
    }
    try {
      const { message } = await dataProvider.createLead(
        toLeadFormData(values as LeadFormValues, leadType, files),
      );
      const thanks = message || LEAD_MSG.thankYou;
      notify(thanks, { type: 'success' });
      onSubmitted(thanks);
    } catch (error) {
      // httpClient already toasted the normalised message; point at the fields the server named.
      const found = serverErrors(error instanceof HttpError ? error.body?.errors : undefined);
      setFileErrors((current) => ({ ...current, ...found.files }));
      if (Object.keys(found.fields).length) return found.fields;
    }
  };

  const fileProps = { files, errors: fileErrors, onFile, onError: onFileError };

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
        <Section title="app.onboarding.sections.applicantInfo">
          <FormFile field="picture" label="app.onboarding.files.picture" {...fileProps} />
          <Box sx={{ ...grid, mt: 2 }}>
            <TextInput source="applicantInfo.name" autoComplete="name" />
            <TextInput source="applicantInfo.education" />
          </Box>
          <RadioButtonGroupInput
            source="applicantInfo.gender"
            choices={plain(GENDERS)}
            translateChoice={false}
            row
          />
        </Section>

        <Section title="app.onboarding.sections.businessInfo">
          <Box sx={grid}>
            <TextInput source="businessInfo.establishmentName" />
            <TextInput source="businessInfo.outletAddress" />
            <TextInput source="businessInfo.businessLandmark" />
            <TextInput source="businessInfo.pincode" slotProps={numeric} />
            <LocationLookups
              state="businessInfo.stateId"
              district="businessInfo.districtId"
              tehsil="businessInfo.tehsilId"
            />
            <TextInput source="businessInfo.mobile" type="tel" autoComplete="tel" />
            <TextInput source="businessInfo.telephone" type="tel" />
            <TextInput source="businessInfo.email" type="email" autoComplete="email" />
            <TextInput source="businessInfo.yearsInLocation" slotProps={numeric} />
          </Box>
          <RadioButtonGroupInput
            source="businessInfo.ownershipType"
            choices={plain(OWNERSHIP_TYPES)}
            translateChoice={false}
            row
          />
        </Section>

        <Section title="app.onboarding.sections.permanentAddress">
          <SameAsAbove />
          <Box sx={grid}>
            <TextInput source="permanentAddress.residentialAddress" />
            <TextInput source="permanentAddress.landmark" />
            <TextInput source="permanentAddress.permanentAddressPincode" slotProps={numeric} />
            <LocationLookups
              state="permanentAddress.permanentStateId"
              district="permanentAddress.permanentDistrictId"
              tehsil="permanentAddress.permanentTehsilId"
            />
            <TextInput source="permanentAddress.permanentMobile" type="tel" />
            <TextInput source="permanentAddress.permanentTelephone" type="tel" />
            <TextInput source="permanentAddress.permanentEmail" type="email" />
          </Box>
        </Section>

        <Section title="app.onboarding.sections.otherBusinessInfo">
          <Box sx={grid}>
            <TextInput source="otherBusinessInfo.outletDescription" multiline />
            <TextInput source="otherBusinessInfo.similarServiceDetails" multiline />
            <TextInput source="otherBusinessInfo.panNumber" />
            <TextInput source="otherBusinessInfo.aadharNumber" slotProps={numeric} />
          </Box>
        </Section>

        <Section title="app.onboarding.sections.bankInfo">
          <Box sx={grid}>
            <TextInput source="bankInfo.bankName" />
            <TextInput source="bankInfo.accountNumber" slotProps={numeric} />
            <TextInput source="bankInfo.ifscCode" />
          </Box>
        </Section>

        <Section title="app.onboarding.sections.identityProof">
          <Box sx={grid}>
            <SelectInput
              source="identityProof.type"
              choices={IDENTITY_DOCUMENTS.map((id) => ({
                id,
                name: translate(`app.onboarding.identityTypes.${id}`),
              }))}
              translateChoice={false}
            />
            <TextInput source="identityProof.documentNumber" />
          </Box>
          <FormFile field="document" label="app.onboarding.files.document" {...fileProps} />
        </Section>

        <Section title="app.onboarding.sections.declaration">
          <Typography sx={{ mb: 1 }}>{translate('app.onboarding.declaration')}</Typography>
          <Typography variant="body2" color="text.secondary">
            {translate('app.onboarding.notes')}
          </Typography>
        </Section>

        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <SubmitButton />
          <Link component={RouterLink} to="/welcome">
            {translate('app.onboarding.backToWelcome')}
          </Link>
        </Stack>
      </Stack>
    </Form>
  );
};

/**
 * Seed sections 2, 3, 5 and 8: the public onboarding form of a retailer or a distributor (no sidebar), sent as
 * multipart `leads/create`. After a successful submit the thank-you text shows as a toast and on the page, and
 * the form starts again empty.
 */
export const Onboarding = ({ leadType }: { leadType: LeadType }) => {
  const translate = useTranslate();
  const [formKey, setFormKey] = useState(0);
  const [thanks, setThanks] = useState<string | null>(null);
  const thanksRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!thanks) return;
    window.scrollTo(0, 0);
    thanksRef.current?.focus();
  }, [thanks]);

  const kind = leadType === 'RETAILER' ? 'retailer' : 'distributor';
  return (
    <ResourceContextProvider value="leads">
      <Box sx={{ minHeight: '100vh', bgcolor: 'background.default', p: { xs: 2, md: 4 } }}>
        <Box sx={{ maxWidth: 960, mx: 'auto' }}>
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 3 }}>
            <Typography sx={{ fontWeight: 700, fontSize: 24, color: 'primary.main' }}>Tierdesk</Typography>
            <Button component={RouterLink} to="/welcome" startIcon={<ArrowBackIcon />}>
              {translate('app.onboarding.backToWelcome')}
            </Button>
          </Stack>
          <Typography component="h1" variant="h4" sx={{ fontWeight: 600 }}>
            {translate(`app.onboarding.${kind}Title`)}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {translate('app.onboarding.subtext')}
          </Typography>
          {thanks && (
            <Alert
              ref={thanksRef}
              tabIndex={-1}
              severity="success"
              role="status"
              sx={{ mb: 3 }}
              onClose={() => setThanks(null)}
            >
              {thanks}
            </Alert>
          )}
          <LeadForm
            key={formKey}
            leadType={leadType}
            onSubmitted={(message) => {
              setThanks(message);
              setFormKey((key) => key + 1);
            }}
          />
        </Box>
      </Box>
    </ResourceContextProvider>
  );
};
