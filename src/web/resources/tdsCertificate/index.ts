import PercentIcon from '@mui/icons-material/Percent';
import { lazyPage } from '../../layout/lazyPage';
import { MY_TDS_PATH } from './paths';

const MyTdsPage = lazyPage(
  () => import('./MyTdsPage'),
  (module) => module.MyTdsPage,
);

export default {
  list: MyTdsPage,
  icon: PercentIcon,
  recordRepresentation: () => '',
  /** A tier user's own TDS (issue 51): its quarters, each with its certificate. */
  path: MY_TDS_PATH,
};
