import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import { lazyPage } from '../../layout/lazyPage';
import { WALLET_PATH } from './paths';

const WalletPage = lazyPage(
  () => import('./WalletPage'),
  (module) => module.WalletPage,
);

export default {
  list: WalletPage,
  icon: AccountBalanceWalletIcon,
  recordRepresentation: () => '',
  /** My wallet (not in the seed); App mounts it here. */
  path: WALLET_PATH,
};
