import WebhookIcon from '@mui/icons-material/Webhook';
import type { RaRecord } from 'react-admin';
import { lazyPage } from '../../layout/lazyPage';
import { WEBHOOKS_LIST_PATH } from './paths';

const WebhookList = lazyPage(
  () => import('./WebhookList'),
  (module) => module.WebhookList,
);

export default {
  list: WebhookList,
  icon: WebhookIcon,
  recordRepresentation: (record: RaRecord) => String(record.url ?? ''),
  /** ADMIN's integrator endpoints (issue 55). */
  path: WEBHOOKS_LIST_PATH,
};
