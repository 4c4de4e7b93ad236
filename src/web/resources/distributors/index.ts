import LanIcon from '@mui/icons-material/Lan';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { DISTRIBUTOR_LIST_PATH, DistributorList } from './DistributorList';

export default {
  list: DistributorList,
  icon: LanIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.name),
  /** The seed's route (section 2); App mounts the list here. */
  path: DISTRIBUTOR_LIST_PATH,
};
