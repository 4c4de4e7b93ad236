import {
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useDataProvider, useLogout, useNotify, useTranslate } from 'react-admin';
import { MSG } from '../../shared/messages';
import { PASSWORD_PATTERN } from '../../shared/rules';
import { LOGIN_PATH } from '../providers/authProvider';
import type { AppDataProvider, ResetPasswordInput } from '../providers/dataProvider';
import { useFormState } from './formState';
import { PasswordField } from './PasswordField';

type PasswordFieldName = keyof ResetPasswordInput;

/** Seed section 5, password change: all required, new password pattern, confirm equals new. */
export const validatePasswordChange = (
  values: Record<PasswordFieldName, string>,
): Partial<Record<PasswordFieldName, string>> => {
  const errors: Partial<Record<PasswordFieldName, string>> = {};
  if (!values.oldPassword) errors.oldPassword = MSG.required;
  if (!values.newPassword) errors.newPassword = MSG.required;
  else if (!PASSWORD_PATTERN.test(values.newPassword)) errors.newPassword = MSG.passwordPattern;
  if (!values.confirmPassword) errors.confirmPassword = MSG.required;
  else if (values.confirmPassword !== values.newPassword) errors.confirmPassword = MSG.mustMatch;
  return errors;
};

/**
 * Non-dismissable 'Update Password' dialog (no backdrop or Escape close). On success: two toasts,
 * logout (all stored session data cleared) and /auth.
 */
export const ChangePasswordDialog = ({ open }: { open: boolean }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const logout = useLogout();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [submitting, setSubmitting] = useState(false);
  const form = useFormState<PasswordFieldName>(
    { oldPassword: '', newPassword: '', confirmPassword: '' },
    validatePasswordChange,
  );

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.isValid) {
      form.touchAll();
      notify(MSG.validationFailed, { type: 'error' });
      return;
    }
    setSubmitting(true);
    try {
      const { message } = await dataProvider.resetPassword(form.values);
      notify(message || MSG.passwordUpdated, { type: 'success' });
      notify(MSG.loginWithNewPassword, { type: 'info' });
      await logout({}, LOGIN_PATH, false);
    } catch {
      // httpClient already showed the server's refusal in the error toast.
      setSubmitting(false);
    }
  };

  return (
    <Dialog open={open} disableEscapeKeyDown aria-labelledby="change-password-title" fullWidth maxWidth="xs">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="change-password-title">{translate('app.password.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <PasswordField
              {...form.field('oldPassword')}
              label={translate('app.password.oldPassword')}
              autoComplete="current-password"
              fullWidth
            />
            <PasswordField
              {...form.field('newPassword')}
              label={translate('app.password.newPassword')}
              autoComplete="new-password"
              fullWidth
            />
            <PasswordField
              {...form.field('confirmPassword')}
              label={translate('app.password.confirmPassword')}
              autoComplete="new-password"
              fullWidth
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button
            type="submit"
            variant="contained"
            disabled={submitting}
            startIcon={submitting ? <CircularProgress size={18} color="inherit" /> : undefined}
          >
            {translate('app.password.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
