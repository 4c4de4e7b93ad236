import BadgeIcon from '@mui/icons-material/Badge';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { EMPLOYEE_LIST_PATH, EmployeeList } from './EmployeeList';

export default {
  list: EmployeeList,
  icon: BadgeIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.name),
  /** The seed's route (section 2); App mounts the list here. */
  path: EMPLOYEE_LIST_PATH,
};
