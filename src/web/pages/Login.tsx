import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Link,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useAuthProvider, useNotify, useTranslate } from 'react-admin';
import { Navigate, Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { MSG } from '../../shared/messages';
import { loginSchema } from '../../shared/schemas/account';
import { HOME_PATH, LOGIN_PATH } from '../providers/authProvider';
import { clearSessionEndedFlag, hasSessionEndedFlag } from '../providers/session';
import { useFormState } from './formState';
import { PasswordField } from './PasswordField';

type LoginField = 'userName' | 'password';

/** First message per field from the shared login schema (seed section 5). */
export const validateLogin = (values: Record<LoginField, string>): Partial<Record<LoginField, string>> => {
  const parsed = loginSchema.safeParse(values);
  if (parsed.success) return {};
  const errors: Partial<Record<LoginField, string>> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as LoginField;
    errors[key] ??= issue.message;
  }
  return errors;
};

/** Seed sections 2 and 5: the login page at /auth. */
export const Login = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const authProvider = useAuthProvider();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [submitting, setSubmitting] = useState(false);
  // One-shot notice after a 401 ended the session: read on mount, then cleared.
  const [sessionEnded] = useState(hasSessionEndedFlag);
  useEffect(() => clearSessionEndedFlag(), []);
  const form = useFormState<LoginField>({ userName: '', password: '' }, validateLogin);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.isValid) {
      form.touchAll();
      notify(MSG.invalidLoginForm, { type: 'error' });
      return;
    }
    setSubmitting(true);
    try {
      const result = await authProvider!.login({
        userName: form.values.userName.trim(),
        password: form.values.password,
      });
      // Not react-admin's useLogin: /auth is a public route, so the admin already cached
      // "not authenticated" while it was shown; reset the auth queries before entering the layout.
      await queryClient.resetQueries({ queryKey: ['auth'] });
      notify(result?.message ?? MSG.loginSuccess, { type: 'success' });
      navigate(HOME_PATH);
    } catch {
      // httpClient already showed the normalised error toast (or the connection alert).
      setSubmitting(false);
    }
  };

  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'background.default',
        p: 2,
      }}
    >
      <Card sx={{ width: '100%', maxWidth: 420 }}>
        <CardContent sx={{ p: 4 }}>
          <Link
            component={RouterLink}
            to="/"
            aria-label={translate('app.login.logoHome')}
            underline="none"
            sx={{ fontWeight: 700, fontSize: 24, letterSpacing: 0.5 }}
          >
            Tierdesk
          </Link>
          <Typography component="h1" variant="h5" sx={{ mt: 3, fontWeight: 600 }}>
            {translate('app.login.heading')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {translate('app.login.subtext')}
          </Typography>
          {sessionEnded && (
            <Alert severity="info" sx={{ mb: 2 }}>
              {translate('app.login.sessionEnded')}
            </Alert>
          )}
          <form noValidate onSubmit={onSubmit} aria-label={translate('app.login.heading')}>
            <Stack spacing={2}>
              <TextField
                {...form.field('userName')}
                label={translate('app.login.mobile')}
                autoComplete="username"
                slotProps={{ htmlInput: { inputMode: 'tel' } }}
                autoFocus
                fullWidth
              />
              <PasswordField
                {...form.field('password')}
                label={translate('app.login.password')}
                autoComplete="current-password"
                fullWidth
              />
              <Button
                type="submit"
                variant="contained"
                size="large"
                disabled={submitting}
                startIcon={submitting ? <CircularProgress size={18} color="inherit" /> : undefined}
              >
                {translate('app.login.submit')}
              </Button>
            </Stack>
          </form>
          <Typography sx={{ mt: 3, textAlign: 'center' }}>
            <Link component={RouterLink} to="/welcome">
              {translate('app.login.createAccount')}
            </Link>
          </Typography>
        </CardContent>
      </Card>
    </Box>
  );
};

/** react-admin's own login route (/login) forwards to the panel's login URL, keeping its state. */
export const LoginRedirect = () => {
  const location = useLocation();
  return <Navigate to={{ pathname: LOGIN_PATH, search: location.search }} state={location.state} replace />;
};
