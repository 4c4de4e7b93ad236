import {
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
} from '@mui/material';
import { type ReactNode, useId } from 'react';
import {
  Form,
  type RaRecord,
  TextInput,
  useDataProvider,
  useNotify,
  useRefresh,
  useTranslate,
  type ValidateForm,
} from 'react-admin';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { MSG } from '../../../shared/messages';
import { approveLeadSchema, LEAD_MSG, rejectLeadSchema } from '../../../shared/schemas/leads';
import { LookupInput } from '../../lists/LookupInput';
import type { AppDataProvider } from '../../providers/dataProvider';

type Values = Record<string, unknown>;

/** First message per field of a zod schema's refusal. */
const zodErrors = (schema: typeof approveLeadSchema | typeof rejectLeadSchema, values: Values) => {
  const parsed = schema.safeParse(values);
  const errors: Record<string, string> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? '')] ??= issue.message;
  return errors;
};

export const validateApproval =
  (leadType: string): ValidateForm =>
  (values) => {
    const errors = zodErrors(approveLeadSchema, {
      masterDistributorId: values.masterDistributorId ?? undefined,
      distributorId: values.distributorId ?? undefined,
    });
    if (leadType === 'RETAILER' && !values.distributorId) errors.distributorId ??= MSG.required;
    return errors;
  };

export const validateRejection: ValidateForm = (values) => zodErrors(rejectLeadSchema, values);

const SubmitButton = ({ label, color }: { label: string; color: 'primary' | 'error' }) => {
  const { isSubmitting } = useFormState();
  return (
    <Button
      type="submit"
      variant="contained"
      color={color}
      disabled={isSubmitting}
      startIcon={isSubmitting ? <CircularProgress size={18} color="inherit" /> : undefined}
    >
      {label}
    </Button>
  );
};

interface DecisionDialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  submitLabel: string;
  color: 'primary' | 'error';
  validate: ValidateForm;
  /** Sends the decision; resolves the server's message. Rejections were already toasted by httpClient. */
  decide: (values: Values) => Promise<{ message?: string }>;
  fallbackMessage: string;
  children: ReactNode;
}

/** A small modal form that sends one decision, toasts the server's message, refreshes the views and closes. */
const DecisionDialog = ({
  open,
  onClose,
  title,
  submitLabel,
  color,
  validate,
  decide,
  fallbackMessage,
  children,
}: DecisionDialogProps) => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const titleId = useId();

  const submit = async (values: Values) => {
    let message: string | undefined;
    try {
      ({ message } = await decide(values));
    } catch {
      return; // the 'Error!!!' toast is shown; the dialog stays open
    }
    notify(message || fallbackMessage, { type: 'success' });
    refresh();
    onClose();
  };

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      {open && (
        <Form onSubmit={submit} validate={validate} mode="onTouched" noValidate>
          <DialogTitle id={titleId}>{translate(title)}</DialogTitle>
          <DialogContent>
            <Stack spacing={1} sx={{ pt: 1 }}>
              {children}
            </Stack>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button onClick={onClose}>{translate('app.leads.cancel')}</Button>
            <SubmitButton label={translate(submitLabel)} color={color} />
          </DialogActions>
        </Form>
      )}
    </Dialog>
  );
};

/** Master distributor, then (for a retailer) a distributor of that master distributor. */
const ParentLookups = ({ retailer }: { retailer: boolean }) => {
  const { setValue } = useFormContext();
  const masterDistributorId = useWatch({ name: 'masterDistributorId' }) as string | null;
  return (
    <>
      <LookupInput
        source="masterDistributorId"
        reference="masterDistributors"
        label="app.leads.masterDistributorId"
        onChange={() => setValue('distributorId', null, { shouldDirty: true })}
      />
      {retailer && (
        <LookupInput
          key={masterDistributorId ?? 'none'}
          source="distributorId"
          reference="distributors"
          label="app.leads.distributorId"
          filter={masterDistributorId ? { masterDistributorId } : {}}
          disabled={!masterDistributorId}
        />
      )}
    </>
  );
};

export interface DecisionProps {
  lead: RaRecord;
  open: boolean;
  onClose: () => void;
}

/** POST leads/approve/{id}: the applicant becomes a retailer or distributor under the chosen parent. */
export const ApproveDialog = ({ lead, open, onClose }: DecisionProps) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const retailer = lead.leadType === 'RETAILER';
  return (
    <DecisionDialog
      open={open}
      onClose={onClose}
      title="app.leads.approveTitle"
      submitLabel="app.leads.approve"
      color="primary"
      validate={validateApproval(lead.leadType)}
      fallbackMessage={LEAD_MSG.approved}
      decide={(values) =>
        dataProvider.approveLead(lead.id, {
          masterDistributorId: String(values.masterDistributorId),
          ...(retailer ? { distributorId: String(values.distributorId) } : {}),
        })
      }
    >
      <DialogContentText>
        {translate('app.leads.approveText', { type: retailer ? 'retailer' : 'distributor' })}
      </DialogContentText>
      <ParentLookups retailer={retailer} />
    </DecisionDialog>
  );
};

/** POST leads/reject/{id} with the reason. */
export const RejectDialog = ({ lead, open, onClose }: DecisionProps) => {
  const dataProvider = useDataProvider<AppDataProvider>();
  return (
    <DecisionDialog
      open={open}
      onClose={onClose}
      title="app.leads.rejectTitle"
      submitLabel="app.leads.reject"
      color="error"
      validate={validateRejection}
      fallbackMessage={LEAD_MSG.rejected}
      decide={(values) => dataProvider.rejectLead(lead.id, String(values.reason ?? '').trim())}
    >
      <TextInput source="reason" label="app.leads.reason" multiline minRows={3} autoFocus />
    </DecisionDialog>
  );
};
