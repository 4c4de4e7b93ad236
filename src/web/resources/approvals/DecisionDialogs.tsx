import { DialogContentText } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import {
  type RaRecord,
  TextInput,
  useDataProvider,
  useNotify,
  useRefresh,
  useTranslate,
  type ValidateForm,
} from 'react-admin';
import { formatRupees, titleCase } from '../../../shared/format';
import { rejectSchema } from '../../../shared/schemas/approvals';
import { FormDialog } from '../../forms/FormDialog';
import { requiredMark, schemaValidator } from '../../forms/schemaValidator';
import { enumKey } from '../../i18n/enums';
import { sharedKey } from '../../i18n/sharedMessages';
import type { AppDataProvider } from '../../providers/dataProvider';

type Values = Record<string, unknown>;

const validateRejection: ValidateForm = schemaValidator(rejectSchema);

/** What a command is, in words: the kind, the amount and the user (the dialogs' and the row buttons' names). */
export const useCommandWords = () => {
  const translate = useTranslate();
  return (command: RaRecord) => ({
    kind: translate(enumKey('postingKind', String(command.kind))).toLowerCase(),
    amount: formatRupees(command.amount),
    name: titleCase(command.user?.name),
  });
};

interface DecisionDialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  submitLabel: string;
  color: 'primary' | 'error';
  validate?: ValidateForm;
  decide: (values: Values) => Promise<{ message?: string }>;
  fallbackMessage: string;
  children: ReactNode;
}

/**
 * One decision as a modal form (a react-query mutation over the dataProvider): toasts the server's message,
 * refreshes the list and the menu's count, and closes. A refusal (the maker, a balance that no longer covers the
 * payout) toasts in red and keeps the dialog open.
 */
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
  const notify = useNotify();
  const refresh = useRefresh();
  const { mutateAsync } = useMutation({
    mutationFn: decide,
    onSuccess: ({ message }) => {
      notify(message || fallbackMessage, { type: 'success' });
      refresh();
      onClose();
    },
    onError: (error) => notify(error.message, { type: 'error' }),
  });
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={title}
      submitLabel={submitLabel}
      submitColor={color}
      cancelLabel="app.approvals.cancel"
      spacing={1}
      onSubmit={(values: Values) => mutateAsync(values).catch(() => undefined)}
      validate={validate}
    >
      {children}
    </FormDialog>
  );
};

export interface CommandDialogProps {
  command: RaRecord;
  open: boolean;
  onClose: () => void;
}

/** POST approvals/approve/{id}: the command runs now. */
export const ApproveCommandDialog = ({ command, open, onClose }: CommandDialogProps) => {
  const translate = useTranslate();
  const words = useCommandWords();
  const dataProvider = useDataProvider<AppDataProvider>();
  return (
    <DecisionDialog
      open={open}
      onClose={onClose}
      title="app.approvals.approveTitle"
      submitLabel="app.approvals.approve"
      color="primary"
      fallbackMessage={sharedKey('sales', 'commandApproved')}
      decide={() => dataProvider.approveCommand(command.id)}
    >
      <DialogContentText>{translate('app.approvals.approveText', words(command))}</DialogContentText>
    </DecisionDialog>
  );
};

/** POST approvals/reject/{id} with the reason (required). */
export const RejectCommandDialog = ({ command, open, onClose }: CommandDialogProps) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  return (
    <DecisionDialog
      open={open}
      onClose={onClose}
      title="app.approvals.rejectTitle"
      submitLabel="app.approvals.reject"
      color="error"
      validate={validateRejection}
      fallbackMessage={sharedKey('sales', 'commandRejected')}
      decide={(values) => dataProvider.rejectCommand(command.id, String(values.reason ?? '').trim())}
    >
      <DialogContentText>{translate('app.approvals.rejectText')}</DialogContentText>
      <TextInput source="reason" label="app.approvals.reason" multiline minRows={3} validate={requiredMark} />
    </DecisionDialog>
  );
};
