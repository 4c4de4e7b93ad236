import MapIcon from '@mui/icons-material/Map';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { lazyPage } from '../../layout/lazyPage';

const DistrictList = lazyPage(
  () => import('./DistrictList'),
  (module) => module.DistrictList,
);

export default {
  list: DistrictList,
  icon: MapIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.name),
  /** The seed's route (section 2); App mounts the list here. */
  path: '/location/district/list',
};
