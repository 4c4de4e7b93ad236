import HistoryIcon from '@mui/icons-material/History';
import type { RaRecord } from 'react-admin';
import { lazyPage } from '../../layout/lazyPage';
import { AUDIT_LIST_PATH } from './paths';

const AuditList = lazyPage(
  () => import('./AuditList'),
  (module) => module.AuditList,
);

export default {
  list: AuditList,
  icon: HistoryIcon,
  recordRepresentation: (record: RaRecord) => String(record.action ?? ''),
  /** ADMIN's audit trail; App mounts the list here. */
  path: AUDIT_LIST_PATH,
};
