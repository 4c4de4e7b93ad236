import PlaceIcon from '@mui/icons-material/Place';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { lazyPage } from '../../layout/lazyPage';
import { TEHSIL_CREATE_PATH, TEHSIL_LIST_PATH } from './paths';

const TehsilCreate = lazyPage(
  () => import('./TehsilList'),
  (module) => module.TehsilCreate,
);
const TehsilList = lazyPage(
  () => import('./TehsilList'),
  (module) => module.TehsilList,
);

export default {
  list: TehsilList,
  icon: PlaceIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.name),
  /** The seed's routes (section 2); App mounts the list here, and the list with the create modal open. */
  path: TEHSIL_LIST_PATH,
  createPath: TEHSIL_CREATE_PATH,
  createPage: TehsilCreate,
};
