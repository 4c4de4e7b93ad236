import { Button, Chip, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { WireSession } from '../../../shared/wire';
import { useFormat } from '../../i18n/format';
import { sharedKey } from '../../i18n/sharedMessages';
import { SectionCard } from '../../layout/SectionCard';
import { useNotifyError } from '../../layout/useNotifyError';
import { type FittedColumn, FittedTable } from '../../lists/FittedTable';
import { LoadError } from '../../lists/ListError';
import type { AppDataProvider } from '../../providers/dataProvider';

const SESSIONS_KEY = ['account', 'sessions'];

/** A value the server may not have (an address, a browser): the text, or "Unknown". */
const Known = ({ text }: { text: string | null }) => {
  const translate = useTranslate();
  return text ? <span translate="no">{text}</span> : translate('app.security.unknown');
};

/**
 * The person's sessions (account/sessions): where and when each signed in, when it was last seen (to the minute),
 * and End on every one but this one.
 */
export const SessionsCard = () => {
  const translate = useTranslate();
  const format = useFormat();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<AppDataProvider>();
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: () => dataProvider.getSessions() });
  useNotifyError(sessions.error);
  const end = useMutation({
    mutationFn: (id: string) => dataProvider.endSession(id),
    onSuccess: ({ message }) => {
      notify(message || sharedKey('mfa', 'sessionEnded'), { type: 'success' });
      return queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    },
    onError: (error) => notify(error.message, { type: 'error' }),
  });

  const columns: FittedColumn<WireSession>[] = [
    { key: 'browser', label: 'app.security.browser', cell: (s) => <Known text={s.userAgent} /> },
    { key: 'address', label: 'app.security.address', cell: (s) => <Known text={s.ip} /> },
    { key: 'signedIn', label: 'app.security.signedIn', cell: (s) => format.date(s.createdAt) },
    { key: 'lastSeen', label: 'app.security.lastSeen', cell: (s) => format.date(s.lastSeenAt) },
    {
      key: 'action',
      label: 'app.list.actions',
      cell: (s) =>
        s.current ? (
          <Chip size="small" color="primary" label={translate('app.security.thisSession')} />
        ) : (
          <Button
            size="small"
            color="error"
            disabled={end.isPending}
            aria-label={translate('app.security.endSession', { time: format.date(s.createdAt) })}
            onClick={() => end.mutate(s._id)}
          >
            {translate('app.security.end')}
          </Button>
        ),
    },
  ];

  return (
    <SectionCard title="app.security.sessions">
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {translate('app.security.sessionsText')}
      </Typography>
      {sessions.isError ? (
        <LoadError
          text="app.security.loadError"
          retry={() => sessions.refetch()}
          busy={sessions.isFetching}
        />
      ) : (
        <FittedTable
          label={translate('app.security.sessionsList')}
          columns={columns}
          rows={sessions.data ?? []}
          rowKey={(s) => s._id}
        />
      )}
    </SectionCard>
  );
};
