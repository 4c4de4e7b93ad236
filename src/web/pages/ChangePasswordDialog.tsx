import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { Form, PasswordInput, useDataProvider, useLogout, useNotify, useTranslate } from 'react-admin';
import { resetPasswordSchema } from '../../shared/schemas/account';
import { SubmitButton } from '../forms/SubmitButton';
import { requiredMark, schemaValidator } from '../forms/schemaValidator';
import { serverFieldErrors } from '../forms/serverErrors';
import { LOGIN_PATH } from '../providers/authProvider';
import type { AppDataProvider, ResetPasswordInput } from '../providers/dataProvider';
import { sharedKey } from '../i18n/sharedMessages';

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
    <Dialog open={open} disableEscapeKeyDown aria-labelledby="change-password-title" fullWidth maxWidth="xs">
      <Form
        defaultValues={empty}
        onSubmit={submit}
        validate={validatePasswordChange}
        mode="onTouched"
        noValidate
      >
        <DialogTitle id="change-password-title">{translate('app.password.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={0.5} sx={{ pt: 1 }}>
            <PasswordInput
              source="oldPassword"
              label="app.password.oldPassword"
              autoComplete="current-password"
              validate={requiredMark}
              autoFocus
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
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={() => logout({}, LOGIN_PATH, false)}>{translate('app.menu.logout')}</Button>
          <SubmitButton label="app.password.submit" />
        </DialogActions>
      </Form>
    </Dialog>
  );
};
