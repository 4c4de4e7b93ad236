import { Box, Chip, Typography } from '@mui/material';
import {
  DataTable,
  ExportButton,
  List,
  type RaRecord,
  ResourceContextProvider,
  SelectInput,
  TopToolbar,
  useCanAccess,
  useTranslate,
} from 'react-admin';
import { TRANSACTION_TYPES } from '../../../shared/enums';
import { formatDate, formatRupees, titleCase } from '../../../shared/format';
import { PAGE_SIZE } from '../../../shared/rules';
import { csv, csvExporter } from '../../lists/csv';
import { ListPagination } from '../../lists/ListPagination';
import { LookupInput } from '../../lists/LookupInput';
import { NoData } from '../../lists/NoData';
import { PayoutButton, SettleButton } from './LedgerActions';
import { UserLookup, UserTypeInput } from './UserLookups';

export const TRANSACTION_LIST_PATH = '/transaction/list';
/** Seed sections 2 and 9: the transaction list shows at most 5 page links. */
const TRANSACTION_PAGE_LINKS = 5;

export const transactionExporter = csvExporter<RaRecord>([
  csv.name('transactions', 'name', (r) => r.name),
  csv.raw('transactions', 'mobile'),
  csv.raw('transactions', 'email'),
  csv.raw('transactions', 'amount'),
  csv.raw('transactions', 'transactionType'),
  csv.raw('transactions', 'balance'),
  csv.raw('transactions', 'clearingBalance'),
  csv.raw('transactions', 'status'),
  csv.date('transactions'),
]);

/** A bought product in the typeahead: its utmCode, customer and product (searched by utmCode or customer name). */
const saleOption = (sale: RaRecord) =>
  [sale.utmCode, titleCase(sale.customer?.name), titleCase(sale.product?.name)].filter(Boolean).join(' · ');

const BoughtProductFilter = (_: { source: string; alwaysOn?: boolean }) => (
  <Box sx={{ minWidth: 280 }}>
    <LookupInput
      source="boughtProductId"
      reference="sales"
      label="resources.transactions.fields.boughtProductId"
      optionText={saleOption}
    />
  </Box>
);

/** Seed section 2: user type, transaction type, a user (needs a user type first), bought product. */
const transactionFilters = [
  <UserTypeInput key="userType" source="userType" withAdmin alwaysOn />,
  <SelectInput
    key="transactionType"
    source="transactionType"
    choices={TRANSACTION_TYPES.map((id) => ({ id, name: id }))}
    translateChoice={false}
    emptyText="app.transactions.allTransactionTypes"
    alwaysOn
  />,
  <UserLookup key="userId" source="userId" alwaysOn />,
  <BoughtProductFilter key="boughtProductId" source="boughtProductId" alwaysOn />,
];

const TransactionActions = () => {
  const { canAccess: canRunLedger } = useCanAccess({ resource: 'ledger', action: 'edit' });
  return (
    <TopToolbar>
      {canRunLedger && <SettleButton />}
      {canRunLedger && <PayoutButton />}
      <ExportButton />
    </TopToolbar>
  );
};

const money = (field: string) => (r: RaRecord) => formatRupees(r[field]);

/**
 * Seed section 2, transaction list (ADMIN): every posting, newest first, with the wallet's balances right after it;
 * columns name, mobile, email, amount, transaction type, balance, clearing balance, status (and created at);
 * 10 a page with at most 5 page links; CSV export. Settle and Record Payout act on the ledger.
 */
export const TransactionList = () => {
  const translate = useTranslate();
  return (
    <ResourceContextProvider value="transactions">
      <Box sx={{ pt: 2 }}>
        <Typography variant="h5" component="h1">
          {translate('app.transactions.title')}
        </Typography>
        <Typography color="text.secondary">{translate('app.transactions.subtitle')}</Typography>
      </Box>
      <List
        resource="transactions"
        title={translate('app.transactions.title')}
        perPage={PAGE_SIZE}
        sort={{ field: 'createdAt', order: 'DESC' }}
        filters={transactionFilters}
        actions={<TransactionActions />}
        exporter={transactionExporter}
        pagination={<ListPagination maxLinks={TRANSACTION_PAGE_LINKS} />}
        empty={false}
      >
        <DataTable rowClick={false} bulkActionButtons={false} empty={<NoData />}>
          <DataTable.Col source="name" disableSort render={(r: RaRecord) => titleCase(r.name)} />
          <DataTable.Col source="mobile" disableSort />
          <DataTable.Col source="email" disableSort />
          <DataTable.Col source="amount" disableSort align="right" render={money('amount')} />
          <DataTable.Col
            source="transactionType"
            disableSort
            render={(r: RaRecord) => (
              <Chip
                size="small"
                variant="outlined"
                label={r.transactionType}
                color={r.transactionType === 'CREDIT' ? 'success' : 'default'}
              />
            )}
          />
          <DataTable.Col source="balance" disableSort align="right" render={money('balance')} />
          <DataTable.Col
            source="clearingBalance"
            disableSort
            align="right"
            render={money('clearingBalance')}
          />
          <DataTable.Col source="status" disableSort />
          <DataTable.Col source="createdAt" disableSort render={(r: RaRecord) => formatDate(r.createdAt)} />
        </DataTable>
      </List>
    </ResourceContextProvider>
  );
};
