import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { lazyPage } from '../../layout/lazyPage';

const LeadList = lazyPage(
  () => import('./LeadList'),
  (module) => module.LeadList,
);

export default {
  list: LeadList,
  icon: AssignmentIndIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.applicantName),
  /** The review screen of onboarding applications; App mounts the list here. */
  path: '/lead/list',
};
