import { Button } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { PasswordInput, useDataProvider, useLogout, useNotify, useTranslate } from 'react-admin';
import { resetPasswordSchema } from '../../shared/schemas/account';
import { FormDialog } from '../forms/FormDialog';
import { requiredMark, schemaValidator } from '../forms/schemaValidator';
import { serverFieldErrors } from '../forms/serverErrors';
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
  const { mutateAsync } = useMutation({
    mutationFn: (input: ResetPasswordInput) => dataProvider.resetPassword(input),
  });

  const submit = async (values: Record<string, unknown>) => {
    try {
      const { message } = await mutateAsync(values as unknown as ResetPasswordInput);
      notify(message || sharedKey('msg', 'passwordUpdated'), { type: 'success' });
      notify(sharedKey('msg', 'loginWithNewPassword'), { type: 'info' });
      await logout({}, LOGIN_PATH, false);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
      return serverFieldErrors(error);
    }
  };

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
