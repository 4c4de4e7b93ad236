import { Button, DialogContentText } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { TextInput, useDataProvider, useTranslate } from 'react-admin';
import { mfaDisableSchema } from '../../../shared/schemas/account';
import { FormDialog } from '../../forms/FormDialog';
import { CodeInput } from '../../forms/inputs';
import { requiredMark, schemaValidator } from '../../forms/schemaValidator';
import { useSendForm } from '../../forms/useSendForm';
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
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [proof, setProof] = useState<Proof>('otp');
  const validate = schemaValidator(mfaDisableSchema, { toInput: (values) => proofOf(values, proof) });
  const submit = useSendForm(
    (values) =>
      dataProvider.disableSecondStep(proofOf(values, proof) as { otp: string } | { recoveryCode: string }),
    sharedKey('mfa', 'disabled'),
    async () => {
      updateStoredUser({ mfaEnabled: false });
      await queryClient.invalidateQueries({ queryKey: OWN_ACCOUNT_KEY });
      onClose();
    },
  );

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
