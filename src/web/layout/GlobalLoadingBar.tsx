import { LinearProgress } from '@mui/material';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';

/**
 * The seed's always-present loading indicator: a thin bar at the top of every page, public ones included,
 * while any query or mutation is in flight. Its accessible name is in the chosen language ('Loading').
 */
export const GlobalLoadingBar = () => {
  const translate = useTranslate();
  const busy = useIsFetching() + useIsMutating() > 0;
  if (!busy) return null;
  return (
    <LinearProgress
      aria-label={translate('ra.page.loading')}
      sx={{
        position: 'fixed',
        top: 0,
        left: 0,
        right: 0,
        height: 3,
        zIndex: (theme) => theme.zIndex.appBar + 2,
      }}
    />
  );
};
