import PeopleIcon from '@mui/icons-material/People';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { CUSTOMER_LIST_PATH, CustomerList } from './CustomerList';

export default {
  list: CustomerList,
  icon: PeopleIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.name),
  /** The seed's route (section 2); App mounts the list here. */
  path: CUSTOMER_LIST_PATH,
};
