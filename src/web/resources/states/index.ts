import PublicIcon from '@mui/icons-material/Public';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { lazyPage } from '../../layout/lazyPage';

const StateList = lazyPage(
  () => import('./StateList'),
  (module) => module.StateList,
);

export default {
  list: StateList,
  icon: PublicIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.name),
  /** The seed's route (section 2); App mounts the list here. */
  path: '/location/state/list',
};
