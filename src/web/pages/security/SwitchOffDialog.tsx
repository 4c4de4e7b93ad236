import { Button, DialogContentText } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { TextInput, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { mfaDisableSchema } from '../../../shared/schemas/account';
import { FormDialog } from '../../forms/FormDialog';
import { CodeInput } from '../../forms/inputs';
import { requiredMark, schemaValidator } from '../../forms/schemaValidator';
import { serverFieldErrors } from '../../forms/serverErrors';
import { sharedKey } from '../../i18n/sharedMessages';
import type { AppDataProvider } from '../../providers/dataProvider';
import { updateStoredUser } from '../../providers/session';
import { OWN_ACCOUNT_KEY } from './SecondStepDialog';

type Proof = 'otp' | 'recoveryCode';

/** The field the dialog sends: the code, or a recovery code instead (never both). */
const proofOf = (values: Record<string, unknown>, proof: Proof) => ({
  [proof]: String(values[proof] ?? '').trim(),
});

/**
 * Switching one's own second step off: with the code the authenticator app shows, or, for someone without the
 * phone, one of the recovery codes. The server refuses it where the second step is required.
 */
export const SwitchOffDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [proof, setProof] = useState<Proof>('otp');
  const disable = useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      dataProvider.disableSecondStep(proofOf(values, proof) as { otp: string } | { recoveryCode: string }),
  });
  const validate = schemaValidator(mfaDisableSchema, { toInput: (values) => proofOf(values, proof) });

  const submit = async (values: Record<string, unknown>) => {
    try {
      const { message } = await disable.mutateAsync(values);
      notify(message || sharedKey('mfa', 'disabled'), { type: 'success' });
      updateStoredUser({ mfaEnabled: false });
      await queryClient.invalidateQueries({ queryKey: OWN_ACCOUNT_KEY });
      onClose();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
      return serverFieldErrors(error);
    }
  };

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="app.security.switchOffTitle"
      submitLabel="app.security.switchOff"
      submitColor="error"
      cancelLabel="app.security.cancel"
      maxWidth="xs"
      defaultValues={{ otp: '', recoveryCode: '' }}
      validate={validate}
      onSubmit={submit}
    >
      <DialogContentText>{translate('app.security.switchOffText')}</DialogContentText>
      {proof === 'otp' ? (
        <CodeInput label="app.security.otp" />
      ) : (
        <TextInput
          source="recoveryCode"
          label="app.login.recoveryCode"
          autoComplete="off"
          slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false } }}
          validate={requiredMark}
        />
      )}
      <Button
        sx={{ alignSelf: 'flex-start' }}
        onClick={() => setProof(proof === 'otp' ? 'recoveryCode' : 'otp')}
      >
        {translate(proof === 'otp' ? 'app.login.useRecoveryCode' : 'app.login.useOtp')}
      </Button>
    </FormDialog>
  );
};
