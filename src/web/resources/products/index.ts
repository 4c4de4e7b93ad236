import InventoryIcon from '@mui/icons-material/Inventory2';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { lazyPage } from '../../layout/lazyPage';

const ProductList = lazyPage(
  () => import('./ProductList'),
  (module) => module.ProductList,
);

export default {
  list: ProductList,
  icon: InventoryIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.name),
  /** The seed's route (section 2); App mounts the list here. */
  path: '/product/list',
};
