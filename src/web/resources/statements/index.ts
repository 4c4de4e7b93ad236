import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { lazyPage } from '../../layout/lazyPage';
import { STATEMENTS_PATH, USER_STATEMENTS_PATH } from './paths';

const StatementPage = lazyPage(
  () => import('./StatementPage'),
  (module) => module.StatementPage,
);

export default {
  list: StatementPage,
  icon: ReceiptLongIcon,
  recordRepresentation: () => '',
  /** A tier user's own statements (the menu links here). */
  path: STATEMENTS_PATH,
  /** A user's statements, opened by staff from its row in the tier-user lists. */
  userPath: USER_STATEMENTS_PATH,
};
