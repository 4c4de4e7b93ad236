import StoreIcon from '@mui/icons-material/Store';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { RETAILER_LIST_PATH, RetailerList } from './RetailerList';

export default {
  list: RetailerList,
  icon: StoreIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.name),
  /** The seed's route (section 2); App mounts the list here. */
  path: RETAILER_LIST_PATH,
};
