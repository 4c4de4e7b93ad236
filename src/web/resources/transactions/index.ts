import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import type { RaRecord } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { lazyPage } from '../../layout/lazyPage';
import { TRANSACTION_LIST_PATH } from './paths';

const TransactionList = lazyPage(
  () => import('./TransactionList'),
  (module) => module.TransactionList,
);

export default {
  list: TransactionList,
  icon: ReceiptLongIcon,
  recordRepresentation: (record: RaRecord) => titleCase(record.name),
  /** The seed's route (section 2); App mounts the list here. */
  path: TRANSACTION_LIST_PATH,
};
