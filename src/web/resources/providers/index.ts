import StorefrontIcon from '@mui/icons-material/Storefront';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { lazyPage } from '../../layout/lazyPage';

const ProviderList = lazyPage(
  () => import('./ProviderList'),
  (module) => module.ProviderList,
);

export default {
  list: ProviderList,
  icon: StorefrontIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.name),
  /** The seed's route (section 2); App mounts the list here. */
  path: '/provider/list',
};
