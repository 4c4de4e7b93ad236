import InventoryIcon from '@mui/icons-material/Inventory2';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { lazyPage } from '../../layout/lazyPage';
import { PRODUCT_CREATE_PATH, PRODUCT_LIST_PATH } from './paths';

const ProductCreate = lazyPage(
  () => import('./ProductList'),
  (module) => module.ProductCreate,
);

const ProductList = lazyPage(
  () => import('./ProductList'),
  (module) => module.ProductList,
);

export default {
  list: ProductList,
  icon: InventoryIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.name),
  /** The seed's route (section 2); App mounts the list here, and the list with the create modal open. */
  path: PRODUCT_LIST_PATH,
  createPath: PRODUCT_CREATE_PATH,
  createPage: ProductCreate,
};
