import { Box, Card, CardContent, Link, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import {
  Form,
  PasswordInput,
  TextInput,
  useAuthProvider,
  useNotify,
  useTranslate,
  type ValidateForm,
} from 'react-admin';
import { Navigate, Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { InvalidSubmitNotice } from '../forms/InvalidSubmitNotice';
import { SubmitButton } from '../forms/SubmitButton';
import { requiredMark } from '../forms/schemaValidator';
import { sharedKey } from '../i18n/sharedMessages';
import { preloadScreens } from '../layout/lazyPage';
import { PublicBar } from '../layout/PublicBar';
import { afterLoginPath, LOGIN_PATH } from '../providers/paths';

export { afterLoginPath };

/**
 * The server's login schema, loaded on the first submit: zod (in the small `validation` chunk) stays out of the
 * sign-in page's JavaScript, and Login waits for it alone, not for the screens.
 */
export const validateLogin: ValidateForm = async (values) =>
  (await import('./loginValidator')).validateLogin(values);

/**
 * Starts loading the validator and the screens chunk (the dashboard opens next) on the first input, so they
 * download while the user types rather than after Login (not on focus: the user name field has autofocus, and
 * the sign-in page would load them at once).
 */
const prefetchValidator = () => {
  void import('./loginValidator');
  void preloadScreens();
};

const empty = { userName: '', password: '' };

/** Seed sections 2 and 5: the login page at /auth. */
export const Login = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const authProvider = useAuthProvider();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();

  const submit = async (values: Record<string, unknown>) => {
    try {
      const result = await authProvider!.login({
        userName: String(values.userName).trim(),
        password: String(values.password),
      });
      // Not react-admin's useLogin: /auth is a public route, so the admin already cached
      // "not authenticated" while it was shown; reset the auth queries before entering the layout.
      await queryClient.resetQueries({ queryKey: ['auth'] });
      notify(result?.message ?? sharedKey('msg', 'loginSuccess'), { type: 'success' });
      navigate(afterLoginPath(location.state));
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <PublicBar />
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 2, pt: { xs: 2, sm: 6 } }}>
        <Card component="main" sx={{ width: '100%', maxWidth: 420 }} onInputCapture={prefetchValidator}>
          <CardContent sx={{ p: 4 }}>
            <Link
              component={RouterLink}
              to="/"
              aria-label={translate('app.login.logoHome')}
              underline="none"
              sx={{ fontWeight: 700, fontSize: 24, letterSpacing: 0.5 }}
            >
              {translate('app.title')}
            </Link>
            <Typography component="h1" variant="h5" sx={{ mt: 3, fontWeight: 600 }}>
              {translate('app.login.heading')}
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 3 }}>
              {translate('app.login.subtext')}
            </Typography>
            <Form
              defaultValues={empty}
              onSubmit={submit}
              validate={validateLogin}
              mode="onTouched"
              noValidate
              disableInvalidFormNotification
            >
              <InvalidSubmitNotice message={sharedKey('msg', 'invalidLoginForm')} validate={validateLogin} />
              <Stack spacing={1}>
                <TextInput
                  source="userName"
                  label="app.login.mobile"
                  autoComplete="username"
                  slotProps={{ htmlInput: { inputMode: 'tel' } }}
                  validate={requiredMark}
                  autoFocus
                />
                <PasswordInput
                  source="password"
                  label="app.login.password"
                  autoComplete="current-password"
                  validate={requiredMark}
                />
                <SubmitButton label="app.login.submit" size="large" />
              </Stack>
            </Form>
            <Typography sx={{ mt: 3, textAlign: 'center' }}>
              <Link component={RouterLink} to="/welcome">
                {translate('app.login.createAccount')}
              </Link>
            </Typography>
          </CardContent>
        </Card>
      </Box>
    </Box>
  );
};

/** react-admin's own login route (/login) forwards to the panel's login URL, keeping its state. */
export const LoginRedirect = () => {
  const location = useLocation();
  return <Navigate to={{ pathname: LOGIN_PATH, search: location.search }} state={location.state} replace />;
};
