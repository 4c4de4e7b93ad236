import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import { WALLET_PATH, WalletPage } from './WalletPage';

export default {
  list: WalletPage,
  icon: AccountBalanceWalletIcon,
  recordRepresentation: () => '',
  /** My wallet (not in the seed); App mounts it here. */
  path: WALLET_PATH,
};
