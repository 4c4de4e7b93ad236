import AccountTreeIcon from '@mui/icons-material/AccountTree';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { lazyPage } from '../../layout/lazyPage';
import { MASTER_DISTRIBUTOR_LIST_PATH } from './paths';

const MasterDistributorList = lazyPage(
  () => import('./MasterDistributorList'),
  (module) => module.MasterDistributorList,
);

export default {
  list: MasterDistributorList,
  icon: AccountTreeIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.name),
  /** The seed's route (section 2); App mounts the list here. */
  path: MASTER_DISTRIBUTOR_LIST_PATH,
};
