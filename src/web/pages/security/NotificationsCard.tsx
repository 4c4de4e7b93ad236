import { FormControlLabel, Skeleton, Stack, Switch, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { NotificationPreferences } from '../../../shared/schemas/notifications';
import { SectionCard } from '../../layout/SectionCard';
import { useNotifyError } from '../../layout/useNotifyError';
import { LoadError } from '../../lists/ListError';
import type { AppDataProvider } from '../../providers/dataProvider';

export const PREFERENCES_KEY = ['notificationPreferences'];

/**
 * One's own notification channels (issue 55): whether to take e-mail and SMS. The language they are written in is
 * the panel's own (the last one chosen), sent by LanguageKeeper.
 */
export const NotificationsCard = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<AppDataProvider>();
  const preferences = useQuery({
    queryKey: PREFERENCES_KEY,
    queryFn: () => dataProvider.getNotificationPreferences(),
  });
  useNotifyError(preferences.error);
  const save = useMutation({
    mutationFn: (change: Partial<NotificationPreferences>) =>
      dataProvider.saveNotificationPreferences(change),
    onSuccess: ({ result, message }) => {
      queryClient.setQueryData(PREFERENCES_KEY, result);
      notify(message || 'app.security.notificationsSaved', { type: 'success' });
    },
    onError: (error) => notify(error.message, { type: 'error' }),
  });
  const data = preferences.data;
  return (
    <SectionCard title="app.security.notifications">
      <Typography variant="body2" sx={{ mb: 1 }}>
        {translate('app.security.notificationsText')}
      </Typography>
      {preferences.isError ? (
        <LoadError
          text="app.security.loadError"
          retry={() => preferences.refetch()}
          busy={preferences.isFetching}
        />
      ) : !data ? (
        <Skeleton width="60%" aria-label={translate('ra.page.loading')} />
      ) : (
        <Stack>
          {(['email', 'sms'] as const).map((channel) => (
            <FormControlLabel
              key={channel}
              control={
                <Switch
                  checked={data[channel]}
                  disabled={save.isPending}
                  onChange={(event) => save.mutate({ [channel]: event.target.checked })}
                />
              }
              label={translate(`app.security.${channel}`)}
            />
          ))}
        </Stack>
      )}
    </SectionCard>
  );
};
