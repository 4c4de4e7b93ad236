import { Alert } from '@mui/material';
import { useSyncExternalStore } from 'react';
import { useTranslate } from 'react-admin';
import { isOffline, subscribeConnectivity } from '../providers/connectivity';

/**
 * Says that the panel is offline, above the page (an installed panel opens from the service worker's copy with
 * no network): what needs the server cannot load until the connection is back. A status in the page's flow,
 * never over it; gone as soon as the connection is.
 */
export const OfflineBanner = () => {
  const translate = useTranslate();
  const offline = useSyncExternalStore(subscribeConnectivity, isOffline);
  if (!offline) return null;
  return (
    <Alert severity="warning" role="status" sx={{ mt: 1, mx: { xs: 1, md: 2 } }}>
      {translate('app.offline.banner')}
    </Alert>
  );
};
