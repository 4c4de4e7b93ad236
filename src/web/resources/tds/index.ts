import PercentIcon from '@mui/icons-material/Percent';
import { lazyPage } from '../../layout/lazyPage';
import { TDS_PATH } from './paths';

const TdsPage = lazyPage(
  () => import('./TdsPage'),
  (module) => module.TdsPage,
);

export default {
  list: TdsPage,
  icon: PercentIcon,
  recordRepresentation: () => '',
  /** TDS under section 194H (issue 43): a quarter's deductees, certificates and deposits; App mounts it here. */
  path: TDS_PATH,
};
