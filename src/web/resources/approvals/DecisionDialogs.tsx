import { DialogContentText } from '@mui/material';
import { type RaRecord, TextInput, useDataProvider, useTranslate, type ValidateForm } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { approveSchema, rejectSchema } from '../../../shared/schemas/approvals';
import { DecisionDialog } from '../../forms/DecisionDialog';
import { CodeInput } from '../../forms/inputs';
import { requiredMark, schemaValidator } from '../../forms/schemaValidator';
import { enumKey } from '../../i18n/enums';
import { useFormat } from '../../i18n/format';
import { sharedKey } from '../../i18n/sharedMessages';
import type { AppDataProvider } from '../../providers/dataProvider';
import { getStoredUser } from '../../providers/session';

const validateApproval: ValidateForm = schemaValidator(approveSchema);
const validateRejection: ValidateForm = schemaValidator(rejectSchema);

/**
 * Step-up: a checker whose second step is on confirms a decision with its current code (the server asks for it).
 * The signed-in person's own record says whether it is on.
 */
const asksForCode = () => getStoredUser()?.mfaEnabled === true;
const codeOf = (values: Record<string, unknown>) =>
  asksForCode() ? String(values.otp ?? '').trim() : undefined;
/** With the code asked, a field left empty is an empty code (the schema's own message), not an absent one. */
const withCode =
  (validate: ValidateForm): ValidateForm =>
  (values) =>
    validate(asksForCode() ? { ...values, otp: values.otp ?? '' } : values);

/** The checker's current code. */
const StepUpCode = () => (asksForCode() ? <CodeInput label="app.approvals.otp" /> : null);

/**
 * What a command is, in words: the kind, the amount (money commands) and whom it is for (a new admin: the name asked
 * for), the dialogs' and the row buttons' names.
 */
export const useCommandWords = () => {
  const translate = useTranslate();
  const format = useFormat();
  return (command: RaRecord) => ({
    kind: translate(enumKey('commandKind', String(command.kind))).toLowerCase(),
    amount: command.amount === null ? '' : format.rupees(command.amount),
    name: titleCase(command.user?.name ?? command.details?.name),
  });
};

export interface CommandDialogProps {
  command: RaRecord;
  open: boolean;
  onClose: () => void;
}

/**
 * POST approvals/approve/{id} (with the checker's code when its second step is on): the command runs now.
 * `onApproved` hears the answer: an admin creation's or password reset's one-time password, for the checker alone.
 */
export const ApproveCommandDialog = ({
  command,
  open,
  onClose,
  onApproved,
}: CommandDialogProps & { onApproved?: (answer: { oneTimePassword?: string }) => void }) => {
  const translate = useTranslate();
  const words = useCommandWords();
  const dataProvider = useDataProvider<AppDataProvider>();
  return (
    <DecisionDialog
      cancelLabel="app.approvals.cancel"
      open={open}
      onClose={onClose}
      title="app.approvals.approveTitle"
      submitLabel="app.approvals.approve"
      color="primary"
      validate={asksForCode() ? withCode(validateApproval) : undefined}
      fallbackMessage={sharedKey('sales', 'commandApproved')}
      decide={async (values) => {
        const answer = await dataProvider.approveCommand(command.id, codeOf(values));
        onApproved?.(answer);
        return answer;
      }}
    >
      <DialogContentText>
        {translate(
          command.amount === null ? 'app.approvals.approvePowerText' : 'app.approvals.approveText',
          words(command),
        )}
      </DialogContentText>
      <StepUpCode />
    </DecisionDialog>
  );
};

/** POST approvals/reject/{id} with the reason (required). */
export const RejectCommandDialog = ({ command, open, onClose }: CommandDialogProps) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  return (
    <DecisionDialog
      cancelLabel="app.approvals.cancel"
      open={open}
      onClose={onClose}
      title="app.approvals.rejectTitle"
      submitLabel="app.approvals.reject"
      color="error"
      validate={withCode(validateRejection)}
      fallbackMessage={sharedKey('sales', 'commandRejected')}
      decide={(values) =>
        dataProvider.rejectCommand(command.id, String(values.reason ?? '').trim(), codeOf(values))
      }
    >
      <DialogContentText>{translate('app.approvals.rejectText')}</DialogContentText>
      <TextInput source="reason" label="app.approvals.reason" multiline minRows={3} validate={requiredMark} />
      <StepUpCode />
    </DecisionDialog>
  );
};
