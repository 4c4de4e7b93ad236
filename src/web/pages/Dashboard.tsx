import { Alert, Box, Button, Card, CardContent, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import {
  Title,
  useAuthenticated,
  useCanAccess,
  useDataProvider,
  useGetList,
  useTranslate,
} from 'react-admin';
import { UserType } from '../../shared/enums';
import { type CommissionReport, DASHBOARD_TILES, type WireWallet } from '../../shared/wire';
import { useFormat } from '../i18n/format';
import { useNotifyError } from '../layout/useNotifyError';
import type { AppDataProvider } from '../providers/dataProvider';
import { getStoredUser } from '../providers/session';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { SecondStepDialog } from './security/SecondStepDialog';

/**
 * Three money tiles after the seed's nine: commissions credited in the caller's network (report/commissions). They
 * sum every wallet of the network, the caller's own and those below it (a retailer's customers' shares included):
 * a tier user's are labelled as the network's and say whose wallets they add up, beside a tile of its own
 * wallet's clearing balance, the figure My Wallet shows.
 */
const COMMISSION_TILES: { label: string; networkLabel: string; key: keyof CommissionReport }[] = [
  { label: 'app.dashboard.commissionsToday', networkLabel: 'app.dashboard.networkToday', key: 'today' },
  { label: 'app.dashboard.commissionsMonth', networkLabel: 'app.dashboard.networkMonth', key: 'month' },
  { label: 'app.dashboard.inClearing', networkLabel: 'app.dashboard.networkClearing', key: 'clearing' },
];

/**
 * The charts of the month (issue 55), with MUI X Charts: a chunk of their own, loaded once the tiles are drawn, so
 * the panel's first load carries none of it (vite.config.ts, LAZY_OF_THEIR_OWN).
 */
const DashboardCharts = lazy(() => import('./charts/DashboardCharts'));

/** Whose wallets the network's tiles add up, by the caller's role. */
const NETWORK_OF: Partial<Record<UserType, string>> = {
  [UserType.MASTER_DISTRIBUTOR]: 'app.dashboard.networkOfMaster',
  [UserType.DISTRIBUTOR]: 'app.dashboard.networkOfDistributor',
  [UserType.RETAILER]: 'app.dashboard.networkOfRetailer',
};

/** A failed query: an alert with Retry, so a missing figure never reads as zero. */
const LoadError = ({ text, onRetry }: { text: string; onRetry: () => void }) => {
  const translate = useTranslate();
  return (
    <Alert
      severity="error"
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {translate('app.dashboard.retry')}
        </Button>
      }
    >
      {translate(text)}
    </Alert>
  );
};

const Tile = ({
  label,
  testId,
  caption,
  children,
}: {
  label: string;
  testId: string;
  /** What the figure adds up, under it. */
  caption?: string;
  children: ReactNode;
}) => (
  <Card component="li" aria-label={label}>
    <CardContent>
      <Typography color="text.secondary" sx={{ fontSize: 14 }}>
        {label}
      </Typography>
      <Typography component="p" variant="h4" sx={{ fontWeight: 600, mt: 1 }} data-testid={testId}>
        {children}
      </Typography>
      {caption && (
        <Typography variant="body2" color="text.secondary">
          {caption}
        </Typography>
      )}
    </CardContent>
  </Card>
);

/** The caller's own wallet's clearing balance (wallet/fetch's `wallet`, beside one posting), as My Wallet shows it. */
const OwnClearingTile = () => {
  const translate = useTranslate();
  const format = useFormat();
  const { meta, isPending, error } = useGetList('wallet', { pagination: { page: 1, perPage: 1 } });
  const wallet = (meta as { wallet?: WireWallet } | undefined)?.wallet;
  return (
    <Tile
      label={translate('app.dashboard.ownClearing')}
      testId="tile-own-clearing"
      caption={translate('app.dashboard.ownClearingHint')}
    >
      <Figure
        value={wallet ? format.rupees(wallet.clearingBalance) : undefined}
        isLoading={isPending && !error}
      />
    </Tile>
  );
};

/** The figure, a skeleton while it loads, or a dash when it could not be loaded. */
const Figure = ({ value, isLoading }: { value: string | undefined; isLoading: boolean }) => {
  const translate = useTranslate();
  if (value !== undefined) return <>{value}</>;
  return isLoading ? <Skeleton width={60} aria-label={translate('ra.page.loading')} /> : <>—</>;
};

/**
 * Seed section 2: nine user-count tiles at /home, then the commission tiles, and the Update Password dialog for
 * new users, then the second step's set-up for those who must use one. The two reports load in parallel and fail
 * separately.
 */
export const Dashboard = () => {
  useAuthenticated();
  const translate = useTranslate();
  const format = useFormat();
  const dataProvider = useDataProvider<AppDataProvider>();
  // The password-set marker of the stored user (uDD, else userData.user); read once per visit.
  const [mustChangePassword] = useState(() => {
    const user = getStoredUser();
    return !!user && !user.passwordUpdatedAt;
  });
  // Then a second step, where the person must use one (MFA_REQUIRED_FOR, or marked for it): set up here.
  const [mustSetUpSecondStep, setMustSetUpSecondStep] = useState(() => {
    const user = getStoredUser();
    return !!user?.passwordUpdatedAt && !!user.mfaSetupRequired;
  });
  const waiting = mustChangePassword || mustSetUpSecondStep;
  const role = getStoredUser()?.type;
  const networkOf = role === undefined ? undefined : NETWORK_OF[role];
  const { canAccess: hasWallet } = useCanAccess({ resource: 'wallet', action: 'list' });
  const counts = useQuery({
    queryKey: ['report', 'userCounts'],
    queryFn: () => dataProvider.getUserCounts(),
    // The server refuses everything but the password change (and the second step's set-up) until it is done.
    enabled: !waiting,
    retry: false,
  });
  const commissions = useQuery({
    queryKey: ['report', 'commissions'],
    queryFn: () => dataProvider.getCommissionReport(),
    enabled: !waiting,
    retry: false,
  });
  useNotifyError(counts.error);
  useNotifyError(commissions.error);

  return (
    <Box sx={{ p: { xs: 1, md: 2 } }}>
      <Title title={translate('app.dashboard.title')} />
      {/* The page's level-one heading, as on every screen (the app bar's title is not one). */}
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {translate('app.dashboard.title')}
      </Typography>
      {waiting && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate(
            mustChangePassword ? 'app.dashboard.waitingForPassword' : 'app.dashboard.waitingForSecondStep',
          )}
        </Alert>
      )}
      {counts.isError && <LoadError text="app.dashboard.loadError" onRetry={() => counts.refetch()} />}
      {commissions.isError && (
        <LoadError text="app.dashboard.commissionsError" onRetry={() => commissions.refetch()} />
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
          <Tile
            key={key}
            label={translate(`app.dashboard.tiles.${key}`, { _: label })}
            testId={`tile-${key}`}
          >
            <Figure
              value={counts.data ? format.count(Number(counts.data[key] ?? 0)) : undefined}
              isLoading={counts.isLoading}
            />
          </Tile>
        ))}
        {COMMISSION_TILES.map(({ label, networkLabel, key }) => (
          <Tile
            key={key}
            label={translate(networkOf ? networkLabel : label)}
            caption={translate(networkOf ?? 'app.dashboard.wholeNetwork')}
            testId={`tile-commissions-${key}`}
          >
            <Figure
              value={commissions.data ? format.rupees(commissions.data[key]) : undefined}
              isLoading={commissions.isLoading}
            />
          </Tile>
        ))}
        {hasWallet && !waiting && <OwnClearingTile />}
      </Box>
      {!waiting && (
        <Suspense
          fallback={
            <Skeleton
              variant="rectangular"
              height={300}
              sx={{ mt: 3 }}
              aria-label={translate('ra.page.loading')}
            />
          }
        >
          <DashboardCharts />
        </Suspense>
      )}
      <ChangePasswordDialog open={mustChangePassword} />
      <SecondStepDialog open={mustSetUpSecondStep} onDone={() => setMustSetUpSecondStep(false)} />
    </Box>
  );
};
