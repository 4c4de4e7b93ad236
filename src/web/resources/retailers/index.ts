import StoreIcon from '@mui/icons-material/Store';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { lazyPage } from '../../layout/lazyPage';
import { RETAILER_LIST_PATH } from './paths';

const RetailerList = lazyPage(
  () => import('./RetailerList'),
  (module) => module.RetailerList,
);

export default {
  list: RetailerList,
  icon: StoreIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.name),
  /** The seed's route (section 2); App mounts the list here. */
  path: RETAILER_LIST_PATH,
};
