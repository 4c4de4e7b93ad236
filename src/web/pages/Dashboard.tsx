import { Alert, Box, Button, Card, CardContent, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useAuthenticated, useDataProvider, useTranslate } from 'react-admin';
import { DASHBOARD_TILES } from '../../shared/wire';
import type { AppDataProvider } from '../providers/dataProvider';
import { getStoredUser } from '../providers/session';
import { ChangePasswordDialog } from './ChangePasswordDialog';

/** Seed section 2: nine user-count tiles at /home, and the Update Password dialog for new users. */
export const Dashboard = () => {
  useAuthenticated();
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  // The password-set marker of the stored user (uDD, else userData.user); read once per visit.
  const [mustChangePassword] = useState(() => {
    const user = getStoredUser();
    return !!user && !user.passwordUpdatedAt;
  });
  const counts = useQuery({
    queryKey: ['report', 'userCounts'],
    queryFn: () => dataProvider.getUserCounts(),
    // The server refuses everything but the password change until it is done.
    enabled: !mustChangePassword,
    retry: false,
  });

  return (
    <Box sx={{ p: { xs: 1, md: 2 } }}>
      <Title title={translate('app.dashboard.title')} />
      {mustChangePassword && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('app.dashboard.waitingForPassword')}
        </Alert>
      )}
      {counts.isError && (
        <Alert
          severity="error"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => counts.refetch()}>
              {translate('app.dashboard.retry')}
            </Button>
          }
        >
          {translate('app.dashboard.loadError')}
        </Alert>
      )}
      <Box
        component="ul"
        aria-label={translate('app.dashboard.title')}
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
        }}
      >
        {DASHBOARD_TILES.map(({ label, key }) => (
          <Card component="li" key={key} aria-label={label}>
            <CardContent>
              <Typography color="text.secondary" sx={{ fontSize: 14 }}>
                {label}
              </Typography>
              <Typography
                component="p"
                variant="h4"
                sx={{ fontWeight: 600, mt: 1 }}
                data-testid={`tile-${key}`}
              >
                {counts.data ? (
                  Number(counts.data[key] ?? 0).toLocaleString('en-IN')
                ) : counts.isLoading ? (
                  <Skeleton width={60} aria-label="loading" />
                ) : (
                  '—'
                )}
              </Typography>
            </CardContent>
          </Card>
        ))}
      </Box>
      <ChangePasswordDialog open={mustChangePassword} />
    </Box>
  );
};
