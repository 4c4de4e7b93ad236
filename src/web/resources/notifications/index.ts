import NotificationsIcon from '@mui/icons-material/NotificationsActive';
import type { RaRecord } from 'react-admin';
import { lazyPage } from '../../layout/lazyPage';
import { NOTIFICATIONS_LIST_PATH } from './paths';

const NotificationList = lazyPage(
  () => import('./NotificationList'),
  (module) => module.NotificationList,
);

export default {
  list: NotificationList,
  icon: NotificationsIcon,
  recordRepresentation: (record: RaRecord) => String(record.event ?? ''),
  /** ADMIN's deliveries (issue 55). */
  path: NOTIFICATIONS_LIST_PATH,
};
