import BadgeIcon from '@mui/icons-material/Badge';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { lazyPage } from '../../layout/lazyPage';
import { EMPLOYEE_LIST_PATH } from './paths';

const EmployeeList = lazyPage(
  () => import('./EmployeeList'),
  (module) => module.EmployeeList,
);

export default {
  list: EmployeeList,
  icon: BadgeIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.name),
  /** The seed's route (section 2); App mounts the list here. */
  path: EMPLOYEE_LIST_PATH,
};
