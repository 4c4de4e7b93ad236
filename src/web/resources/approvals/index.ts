import FactCheckIcon from '@mui/icons-material/FactCheck';
import type { RaRecord } from 'react-admin';
import { lazyPage } from '../../layout/lazyPage';
import { PendingCount } from './PendingCount';
import { APPROVALS_LIST_PATH } from './paths';

const ApprovalList = lazyPage(
  () => import('./ApprovalList'),
  (module) => module.ApprovalList,
);

export default {
  list: ApprovalList,
  icon: FactCheckIcon,
  recordRepresentation: (record: RaRecord) => String(record.kind ?? ''),
  /** ADMIN's pending commands (maker-checker); App mounts the list here. */
  path: APPROVALS_LIST_PATH,
  /** The menu shows how many commands wait. */
  badge: PendingCount,
};
