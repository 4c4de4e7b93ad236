import PointOfSaleIcon from '@mui/icons-material/PointOfSale';
import type { RaRecord } from 'react-admin';
import { lazyPage } from '../../layout/lazyPage';
import { SALE_LIST_PATH, SALE_PAGE_PATH } from './paths';

const SaleList = lazyPage(
  () => import('./SaleList'),
  (module) => module.SaleList,
);
const SalePage = lazyPage(
  () => import('./SalePage'),
  (module) => module.SalePage,
);

export default {
  list: SaleList,
  icon: PointOfSaleIcon,
  recordRepresentation: (record: RaRecord) => String(record.utmCode ?? ''),
  /** The sales screen (not in the seed); App mounts the list here and one sale at `pagePath`. */
  path: SALE_LIST_PATH,
  pagePath: SALE_PAGE_PATH,
  page: SalePage,
};
