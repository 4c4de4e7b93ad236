import PeopleIcon from '@mui/icons-material/People';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { lazyPage } from '../../layout/lazyPage';
import { CUSTOMER_LIST_PATH } from './paths';

const CustomerList = lazyPage(
  () => import('./CustomerList'),
  (module) => module.CustomerList,
);

export default {
  list: CustomerList,
  icon: PeopleIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.name),
  /** The seed's route (section 2); App mounts the list here. */
  path: CUSTOMER_LIST_PATH,
};
