import { Alert, Box, Button, Skeleton, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Title, useAuthenticated, useDataProvider, useTranslate } from 'react-admin';
import { SectionCard } from '../../layout/SectionCard';
import { useNotifyError } from '../../layout/useNotifyError';
import { LoadError } from '../../lists/ListError';
import type { AppDataProvider } from '../../providers/dataProvider';
import { getStoredUser, updateStoredUser } from '../../providers/session';
import { NotificationsCard } from './NotificationsCard';
import { OWN_ACCOUNT_KEY, SecondStepDialog } from './SecondStepDialog';
import { SessionsCard } from './SessionsCard';
import { SwitchOffDialog } from './SwitchOffDialog';

/** The second step's card: on or off, with Set Up or Switch Off. */
const SecondStepCard = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [dialog, setDialog] = useState<'set-up' | 'switch-off'>();
  const own = useQuery({
    queryKey: OWN_ACCOUNT_KEY,
    queryFn: () => dataProvider.getOwnAccount(getStoredUser()?._id ?? ''),
  });
  useNotifyError(own.error);
  const enabled = own.data?.mfaEnabled;
  // What the rest of the panel reads (the approve dialog's code field) follows the server.
  useEffect(() => {
    if (own.data)
      updateStoredUser({ mfaEnabled: own.data.mfaEnabled, mfaSetupRequired: own.data.mfaSetupRequired });
  }, [own.data]);

  const action =
    enabled === undefined ? undefined : enabled ? (
      <Button variant="outlined" color="error" onClick={() => setDialog('switch-off')}>
        {translate('app.security.switchOff')}
      </Button>
    ) : (
      <Button variant="contained" onClick={() => setDialog('set-up')}>
        {translate('app.security.setUp')}
      </Button>
    );

  return (
    <SectionCard title="app.security.secondStep" action={action}>
      {own.isError ? (
        <LoadError text="app.security.loadError" retry={() => own.refetch()} busy={own.isFetching} />
      ) : enabled === undefined ? (
        <Skeleton width="60%" aria-label={translate('ra.page.loading')} />
      ) : (
        <Alert severity={enabled ? 'success' : 'warning'}>
          {translate(enabled ? 'app.security.on' : 'app.security.off')}
        </Alert>
      )}
      <SecondStepDialog
        open={dialog === 'set-up'}
        onClose={() => setDialog(undefined)}
        onDone={() => setDialog(undefined)}
      />
      <SwitchOffDialog open={dialog === 'switch-off'} onClose={() => setDialog(undefined)} />
    </SectionCard>
  );
};

/**
 * The Security page (the user menu's link): one's own second step of signing in (TOTP) and sessions. Every
 * signed-in person has one; each part acts on the person alone.
 */
export const SecurityPage = () => {
  useAuthenticated();
  const translate = useTranslate();
  return (
    <Box sx={{ p: { xs: 1, md: 2 } }}>
      <Title title={translate('app.security.title')} />
      <Typography component="h1" variant="h5" sx={{ mb: 2 }}>
        {translate('app.security.title')}
      </Typography>
      <Stack spacing={2}>
        <SecondStepCard />
        <SessionsCard />
        <NotificationsCard />
      </Stack>
    </Box>
  );
};
