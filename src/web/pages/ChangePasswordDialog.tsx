import { Button } from '@mui/material';
import { PasswordInput, useDataProvider, useLogout, useNotify, useTranslate } from 'react-admin';
import { resetPasswordSchema } from '../../shared/schemas/account';
import { FormDialog } from '../forms/FormDialog';
import { requiredMark, schemaValidator } from '../forms/schemaValidator';
import { useSendForm } from '../forms/useSendForm';
import { sharedKey } from '../i18n/sharedMessages';
import { LOGIN_PATH } from '../providers/authProvider';
import type { AppDataProvider, ResetPasswordInput } from '../providers/dataProvider';

/** Seed section 5, password change: all required, the new password's pattern, confirm equals new (shared schema). */
export const validatePasswordChange = schemaValidator(resetPasswordSchema);

const empty = { oldPassword: '', newPassword: '', confirmPassword: '' };

/**
 * Non-dismissable 'Update Password' dialog (no backdrop or Escape close) for a user still on the initial password.
 * On success: two toasts, logout (all stored session data cleared) and /auth. Logout is offered too, so a user who
 * does not have the initial password at hand is not trapped.
 */
export const ChangePasswordDialog = ({ open }: { open: boolean }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const logout = useLogout();
  const dataProvider = useDataProvider<AppDataProvider>();
  const submit = useSendForm(
    (values) => dataProvider.resetPassword(values as unknown as ResetPasswordInput),
    sharedKey('msg', 'passwordUpdated'),
    async () => {
      notify(sharedKey('msg', 'loginWithNewPassword'), { type: 'info' });
      await logout({}, LOGIN_PATH, false);
    },
  );

  return (
    <FormDialog
      open={open}
      title="app.password.title"
      submitLabel="app.password.submit"
      secondaryAction={
        <Button onClick={() => logout({}, LOGIN_PATH, false)}>{translate('app.menu.logout')}</Button>
      }
      maxWidth="xs"
      defaultValues={empty}
      onSubmit={submit}
      validate={validatePasswordChange}
    >
      <PasswordInput
        source="oldPassword"
        label="app.password.oldPassword"
        autoComplete="current-password"
        validate={requiredMark}
      />
      <PasswordInput
        source="newPassword"
        label="app.password.newPassword"
        autoComplete="new-password"
        validate={requiredMark}
      />
      <PasswordInput
        source="confirmPassword"
        label="app.password.confirmPassword"
        autoComplete="new-password"
        validate={requiredMark}
      />
    </FormDialog>
  );
};
