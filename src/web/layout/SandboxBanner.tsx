import { Alert } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import type { PartnerModeResult } from '../../shared/constants/sandbox';
import type { Envelope } from '../../shared/wire';
import { apiUrl, httpClient } from '../providers/httpClient';

/**
 * While the server's partner is the built-in sandbox (PROVIDER_MODE=sandbox), every screen of the panel says
 * that sales are simulated. The server says which partner it has (`partner/mode`, public); until it has
 * answered, or if it cannot, nothing is shown. A status in the page's flow above the screen's content, never
 * over it.
 */
export const SandboxBanner = () => {
  const translate = useTranslate();
  const { data } = useQuery({
    queryKey: ['partner', 'mode'],
    queryFn: async () => (await httpClient<Envelope<PartnerModeResult>>(apiUrl('partner/mode'))).json.result,
    // The mode changes only with a restart of the server: asked again at most every few minutes.
    staleTime: 5 * 60_000,
    retry: false,
  });
  if (data?.providerMode !== 'sandbox') return null;
  return (
    <Alert severity="warning" role="status" sx={{ mt: 1, mx: { xs: 1, md: 2 } }}>
      {translate('app.sandbox.banner')}
    </Alert>
  );
};
