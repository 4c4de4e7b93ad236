import { Box, Button, Card, CardContent, Link, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
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
import { secondStepAsked } from '../providers/signIn';

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

/** The second step's field, once the server asked for it: the app's code, or a recovery code instead. */
type CodeStep = 'otp' | 'recoveryCode';

/** The values a step sends: the password's, and the second step's code once asked (never the other code field). */
const stepValues = (values: Record<string, unknown>, codeStep: CodeStep | undefined) => {
  const { otp, recoveryCode, ...rest } = values;
  if (codeStep === 'otp') return { ...rest, otp: otp ?? '' };
  if (codeStep === 'recoveryCode') return { ...rest, recoveryCode: recoveryCode ?? '' };
  return rest;
};

/** Seed sections 2 and 5: the login page at /auth. */
export const Login = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const authProvider = useAuthProvider();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [codeStep, setCodeStep] = useState<CodeStep>();
  const validate: ValidateForm = useCallback(
    (values) => validateLogin(stepValues(values, codeStep)),
    [codeStep],
  );

  const submit = async (values: Record<string, unknown>) => {
    try {
      const result = await authProvider!.login({
        userName: String(values.userName).trim(),
        password: String(values.password),
        ...(codeStep ? { [codeStep]: String(values[codeStep] ?? '').trim() } : {}),
      });
      // Not react-admin's useLogin: /auth is a public route, so the admin already cached
      // "not authenticated" while it was shown; reset the auth queries before entering the layout.
      await queryClient.resetQueries({ queryKey: ['auth'] });
      notify(result?.message ?? sharedKey('msg', 'loginSuccess'), { type: 'success' });
      navigate(afterLoginPath(location.state));
    } catch (error) {
      // The right password of a person with a second step: the form asks for the code, with no error.
      if (!codeStep && secondStepAsked(error)) setCodeStep('otp');
      else notify((error as Error).message, { type: 'error' });
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
              validate={validate}
              mode="onTouched"
              noValidate
              disableInvalidFormNotification
            >
              <InvalidSubmitNotice message={sharedKey('msg', 'invalidLoginForm')} validate={validate} />
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
                {codeStep && <SecondStep codeStep={codeStep} onSwitch={(next) => setCodeStep(next)} />}
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

/**
 * The second step, once the server asked for it after the right password: the code from the authenticator app (a
 * one-time code the phone may fill in), or a recovery code instead.
 */
const SecondStep = ({ codeStep, onSwitch }: { codeStep: CodeStep; onSwitch: (next: CodeStep) => void }) => {
  const translate = useTranslate();
  return (
    <>
      <Typography role="status">
        {translate(codeStep === 'otp' ? sharedKey('mfa', 'codeRequired') : 'app.login.recoveryHint')}
      </Typography>
      {codeStep === 'otp' ? (
        <TextInput
          key="otp"
          source="otp"
          label="app.login.otp"
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          validate={requiredMark}
          autoFocus
        />
      ) : (
        <TextInput
          key="recoveryCode"
          source="recoveryCode"
          label="app.login.recoveryCode"
          autoComplete="off"
          slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false } }}
          validate={requiredMark}
          autoFocus
        />
      )}
      <Button
        variant="text"
        sx={{ alignSelf: 'flex-start' }}
        onClick={() => onSwitch(codeStep === 'otp' ? 'recoveryCode' : 'otp')}
      >
        {translate(codeStep === 'otp' ? 'app.login.useRecoveryCode' : 'app.login.useOtp')}
      </Button>
    </>
  );
};

/** react-admin's own login route (/login) forwards to the panel's login URL, keeping its state. */
export const LoginRedirect = () => {
  const location = useLocation();
  return <Navigate to={{ pathname: LOGIN_PATH, search: location.search }} state={location.state} replace />;
};
