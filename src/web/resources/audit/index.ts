import HistoryIcon from '@mui/icons-material/History';
import type { RaRecord } from 'react-admin';
import { AUDIT_LIST_PATH, AuditList } from './AuditList';

export default {
  list: AuditList,
  icon: HistoryIcon,
  recordRepresentation: (record: RaRecord) => String(record.action ?? ''),
  /** ADMIN's audit trail; App mounts the list here. */
  path: AUDIT_LIST_PATH,
};
