import { Alert, Box, Button, CircularProgress, GlobalStyles, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useDataProvider, useLogout, useNotify, useTranslate } from 'react-admin';
import { mfaEnableSchema } from '../../../shared/schemas/account';
import { FormDialog } from '../../forms/FormDialog';
import { CodeInput } from '../../forms/inputs';
import { schemaValidator } from '../../forms/schemaValidator';
import { useSendForm } from '../../forms/useSendForm';
import { sharedKey } from '../../i18n/sharedMessages';
import { useNotifyError } from '../../layout/useNotifyError';
import { LOGIN_PATH } from '../../providers/authProvider';
import type { AppDataProvider } from '../../providers/dataProvider';
import { updateStoredUser } from '../../providers/session';

const QrCode = lazy(() => import('./QrCode'));

const validateEnable = schemaValidator(mfaEnableSchema);

/** The query of the signed-in person's own record (its second step), which a change here refreshes. */
export const OWN_ACCOUNT_KEY = ['account', 'own'];

/** What printing shows while the recovery codes are on screen: the codes alone. */
const printCodesOnly = (
  <GlobalStyles
    styles={{
      '@media print': {
        'body *': { visibility: 'hidden' },
        '[data-print="recovery-codes"], [data-print="recovery-codes"] *': { visibility: 'visible' },
        '[data-print="recovery-codes"]': { position: 'absolute', left: 0, top: 0 },
      },
    }}
  />
);

/** The recovery codes, shown once: to copy or print, each good for one sign-in. */
const RecoveryCodes = ({ codes }: { codes: string[] }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      notify('app.security.copied', { type: 'success' });
    } catch {
      notify('app.security.copyFailed', { type: 'warning' });
    }
  };
  return (
    <Stack spacing={2}>
      {printCodesOnly}
      <Typography>{translate('app.security.codesText')}</Typography>
      <Box
        component="ol"
        data-print="recovery-codes"
        aria-label={translate('app.security.codesList')}
        translate="no"
        sx={{
          m: 0,
          pl: 4,
          columns: { xs: 1, sm: 2 },
          fontFamily: 'monospace',
          fontSize: '1.1rem',
          '& li': { py: 0.25 },
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={1}>
        <Button variant="outlined" onClick={copy}>
          {translate('app.security.copy')}
        </Button>
        <Button variant="outlined" onClick={() => window.print()}>
          {translate('app.security.print')}
        </Button>
      </Stack>
    </Stack>
  );
};

export interface SecondStepDialogProps {
  open: boolean;
  /** Cancel, Escape and the backdrop. Without it (a set-up the person must make) the dialog offers Logout instead. */
  onClose?: () => void;
  /** After the recovery codes were shown and Done pressed. */
  onDone: () => void;
}

/**
 * Setting up the second step (docs/security.md, "Two-step sign-in"): a new key as a QR code and as text, the code
 * the authenticator app then shows to switch it on, and the ten recovery codes, shown this once. Opened from the
 * Security page, and, without a way to dismiss it, by the dashboard for a person who must set it up first (as the
 * initial password's dialog is).
 */
export const SecondStepDialog = ({ open, onClose, onDone }: SecondStepDialogProps) => {
  const translate = useTranslate();
  const logout = useLogout();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [codes, setCodes] = useState<string[]>();
  const start = useMutation({ mutationFn: () => dataProvider.startSecondStep() });
  useNotifyError(start.error);

  // A new key each time the dialog opens (one request, however often React runs the effect).
  const started = useRef(false);
  const { mutate: startSetUp, reset: resetStart } = start;
  useEffect(() => {
    if (open && !started.current) {
      started.current = true;
      startSetUp();
    }
    if (!open) {
      started.current = false;
      resetStart();
      setCodes(undefined);
    }
  }, [open, startSetUp, resetStart]);

  const switchOn = useSendForm(
    (values) => dataProvider.enableSecondStep(String(values.otp ?? '').trim()),
    sharedKey('mfa', 'enabled'),
    async ({ recoveryCodes }) => {
      updateStoredUser({ mfaEnabled: true, mfaSetupRequired: false });
      await queryClient.invalidateQueries({ queryKey: OWN_ACCOUNT_KEY });
      setCodes(recoveryCodes);
    },
  );

  const logoutInstead = onClose ? undefined : (
    <Button onClick={() => logout({}, LOGIN_PATH, false)}>{translate('app.menu.logout')}</Button>
  );

  if (codes)
    return (
      <FormDialog
        key="codes"
        open={open}
        title="app.security.codesTitle"
        submitLabel="app.security.done"
        maxWidth="sm"
        onSubmit={onDone}
      >
        <RecoveryCodes codes={codes} />
      </FormDialog>
    );

  const setUp = start.data;
  return (
    <FormDialog
      key="set-up"
      open={open}
      onClose={onClose}
      title="app.security.setUpTitle"
      submitLabel="app.security.switchOn"
      cancelLabel="app.security.cancel"
      secondaryAction={logoutInstead}
      maxWidth="sm"
      defaultValues={{ otp: '' }}
      validate={validateEnable}
      onSubmit={switchOn}
    >
      {!onClose && <Alert severity="info">{translate('app.security.requiredText')}</Alert>}
      <Typography>{translate('app.security.scan')}</Typography>
      {setUp ? (
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ alignItems: { sm: 'center' }, py: 1 }}
        >
          <Suspense fallback={<CircularProgress aria-label={translate('app.security.starting')} />}>
            <QrCode value={setUp.otpauthUri} label={translate('app.security.qrAlt')} />
          </Suspense>
          <Box>
            <Typography variant="body2" color="text.secondary">
              {translate('app.security.secret')}
            </Typography>
            <Typography
              data-testid="second-step-key"
              translate="no"
              sx={{ fontFamily: 'monospace', fontSize: '1.1rem', wordBreak: 'break-all' }}
            >
              {setUp.secret}
            </Typography>
          </Box>
        </Stack>
      ) : start.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => startSetUp()}>
              {translate('app.list.retry')}
            </Button>
          }
        >
          {translate('app.security.loadError')}
        </Alert>
      ) : (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', py: 1 }}>
          <CircularProgress size={24} />
          <Typography>{translate('app.security.starting')}</Typography>
        </Stack>
      )}
      <CodeInput label="app.security.otp" />
    </FormDialog>
  );
};
