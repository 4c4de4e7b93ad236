import LanIcon from '@mui/icons-material/Lan';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { lazyPage } from '../../layout/lazyPage';
import { DISTRIBUTOR_LIST_PATH } from './paths';

const DistributorList = lazyPage(
  () => import('./DistributorList'),
  (module) => module.DistributorList,
);

export default {
  list: DistributorList,
  icon: LanIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.name),
  /** The seed's route (section 2); App mounts the list here. */
  path: DISTRIBUTOR_LIST_PATH,
};
