import { Alert, Box } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useCanAccess, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { localise } from '../../i18n/sharedMessages';
import type { AppDataProvider } from '../../providers/dataProvider';

/** The server console's command that adds an admin (npm run admin, src/server/admin.ts). */
export const ADMIN_COMMAND = 'npm run admin -- create --userName <u> --name <n> [--email <e>] [--mobile <m>]';

/**
 * Whether the network has a single admin (GET approvals/admins): then nobody can approve that admin's own
 * commands, and a second admin can only come from the server console. Undefined until known, or for a role that
 * reads no approvals. Read again whenever react-admin refreshes.
 */
export const useSoleAdmin = (): boolean | undefined => {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { canAccess } = useCanAccess({ resource: 'approvals', action: 'list' });
  const { data } = useQuery({
    queryKey: ['approvals', 'admins'],
    queryFn: () => dataProvider.getAdminCount(),
    enabled: canAccess === true,
    retry: false,
  });
  return data === undefined ? undefined : data === 1;
};

/**
 * The single-admin notice, said plainly, with the console command that ends it: code typed as it is, in any
 * language (`translate="no"`).
 */
export const SoleAdminNotice = () => {
  const translate = useTranslate();
  return (
    <Alert severity="warning" role="status" sx={{ my: 1 }}>
      {translate('app.approvals.soleAdmin')}{' '}
      <Box component="code" translate="no" sx={{ wordBreak: 'break-word' }}>
        {ADMIN_COMMAND}
      </Box>
    </Alert>
  );
};

/**
 * The text of a 202 (a command now waits for approval): the server's message, and while the network has a single
 * admin, the notice with the console command, for one toast.
 */
export const usePendingText = () => {
  const translate = useTranslate();
  const soleAdmin = useSoleAdmin();
  return (message: string) =>
    soleAdmin
      ? `${localise(message, translate)}\n${translate('app.approvals.soleAdmin')} ${ADMIN_COMMAND}`
      : message;
};

/** Toasts a 202 with usePendingText. */
export const usePendingNotice = () => {
  const notify = useNotify();
  const pendingText = usePendingText();
  return (message: string) => notify(pendingText(message), { type: 'info' });
};
