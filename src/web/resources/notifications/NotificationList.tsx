import ReplayIcon from '@mui/icons-material/Replay';
import { useMutation } from '@tanstack/react-query';
import { type RaRecord, useDataProvider, useNotify, useRefresh, useTranslate } from 'react-admin';
import { NOTIFICATION_CHANNELS, NOTIFICATION_STATUSES } from '../../../shared/constants/notifications';
import { enumChoices } from '../../i18n/enums';
import { type Column, col } from '../../lists/columns';
import { FittedSelectInput } from '../../lists/FittedSelectInput';
import { ResourceList } from '../../lists/ResourceList';
import { type RowAction, RowActionButton } from '../../lists/RowActions';
import type { AppDataProvider } from '../../providers/dataProvider';

/** Every delivery: when, the event, the channel, to whom (masked by the server), its state, attempts, last error. */
export const NOTIFICATION_COLUMNS: Column[] = [
  col.date('createdAt'),
  col.enum('event', 'notificationEvent'),
  col.enum('channel', 'notificationChannel'),
  col.text('recipient'),
  col.enum('status', 'notificationStatus'),
  col.text('attempts', { align: 'right', numeric: true }),
  col.text('lastError', { hideBelow: 'md' }),
  col.date('sentAt', { hideBelow: 'lg' }),
];

const notificationFilters = [
  <FittedSelectInput
    key="status"
    source="status"
    choices={enumChoices('notificationStatus', NOTIFICATION_STATUSES)}
    emptyText="app.notifications.allStatuses"
    alwaysOn
  />,
  <FittedSelectInput
    key="channel"
    source="channel"
    choices={enumChoices('notificationChannel', NOTIFICATION_CHANNELS)}
    emptyText="app.notifications.allChannels"
    alwaysOn
  />,
];

/**
 * Notifications (ADMIN, issue 55): every e-mail, SMS and webhook delivery, newest first, filtered by status and
 * channel, with Retry now on each one not yet sent (it is tried again at once).
 */
export const NotificationList = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { mutate } = useMutation({
    mutationFn: (id: string) => dataProvider.retryNotification(id),
    onSuccess: ({ message }) => {
      notify(message || 'app.notifications.retried', { type: 'success' });
      refresh();
    },
    onError: (error) => notify(error.message, { type: 'error' }),
  });
  const retry: RowAction[] = [
    {
      key: 'retry',
      render: (r: RaRecord) =>
        r.status === 'SENT' ? null : (
          <RowActionButton
            label="app.notifications.retry"
            ariaLabel={translate('app.notifications.retryRow', { recipient: r.recipient })}
            icon={<ReplayIcon fontSize="small" />}
            onClick={() => mutate(String(r.id))}
          />
        ),
    },
  ];
  return (
    <ResourceList
      resource="notifications"
      texts="app.notifications"
      columns={NOTIFICATION_COLUMNS}
      filters={notificationFilters}
      rowActions={retry}
    />
  );
};
