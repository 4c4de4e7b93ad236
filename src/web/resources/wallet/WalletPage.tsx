import { Box, Card, CardContent, Skeleton, Typography } from '@mui/material';
import {
  DataTable,
  ExportButton,
  List,
  type RaRecord,
  ResourceContextProvider,
  SelectInput,
  TopToolbar,
  useListContext,
  useTranslate,
} from 'react-admin';
import { TRANSACTION_TYPES } from '../../../shared/enums';
import { formatDate, formatRupees } from '../../../shared/format';
import { PAGE_SIZE } from '../../../shared/rules';
import type { WireWallet } from '../../../shared/wire';
import { csv, csvExporter } from '../../lists/csv';
import { ListPagination } from '../../lists/ListPagination';
import { NoData } from '../../lists/NoData';

export const WALLET_PATH = '/wallet';

export const walletExporter = csvExporter<RaRecord>([
  csv.date('wallet'),
  csv.raw('wallet', 'kind'),
  csv.raw('wallet', 'transactionType'),
  csv.raw('wallet', 'amount'),
  csv.raw('wallet', 'status'),
  csv.raw('wallet', 'balance'),
  csv.raw('wallet', 'clearingBalance'),
  csv.raw('wallet', 'reference'),
]);

const walletFilters = [
  <SelectInput
    key="transactionType"
    source="transactionType"
    choices={TRANSACTION_TYPES.map((id) => ({ id, name: id }))}
    translateChoice={false}
    emptyText="app.transactions.allTransactionTypes"
    alwaysOn
  />,
];

/** The two balances wallet/fetch answers beside the postings (the list's `meta.wallet`). */
const WalletCards = () => {
  const translate = useTranslate();
  const { meta, isPending, error } = useListContext();
  const wallet = (meta as { wallet?: WireWallet } | undefined)?.wallet;
  const cards: { label: string; value: number | undefined; hint: string }[] = [
    { label: 'app.wallet.balance', value: wallet?.balance, hint: 'app.wallet.balanceHint' },
    { label: 'app.wallet.clearingBalance', value: wallet?.clearingBalance, hint: 'app.wallet.clearingHint' },
  ];
  return (
    <Box
      component="ul"
      aria-label={translate('app.wallet.title')}
      sx={{
        listStyle: 'none',
        p: 2,
        m: 0,
        display: 'grid',
        gap: 2,
        gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
      }}
    >
      {cards.map(({ label, value, hint }) => (
        <Card component="li" key={label} aria-label={translate(label)} variant="outlined">
          <CardContent>
            <Typography color="text.secondary" sx={{ fontSize: 14 }}>
              {translate(label)}
            </Typography>
            <Typography component="p" variant="h4" sx={{ fontWeight: 600, mt: 1 }}>
              {value !== undefined ? (
                formatRupees(value)
              ) : isPending ? (
                <Skeleton width={120} aria-label="loading" />
              ) : (
                // Not loaded (an error was toasted): no figure rather than a misleading zero.
                '—'
              )}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {error && value === undefined ? translate('app.wallet.loadError') : translate(hint)}
            </Typography>
          </CardContent>
        </Card>
      ))}
    </Box>
  );
};

const money = (field: string) => (r: RaRecord) => formatRupees(r[field]);

/**
 * My wallet (master distributors, distributors, retailers): the caller's balance and clearing balance and its own
 * postings, newest first, 10 a page, filtered by transaction type. The server scopes it to the session.
 */
export const WalletPage = () => {
  const translate = useTranslate();
  return (
    <ResourceContextProvider value="wallet">
      <Box sx={{ pt: 2 }}>
        <Typography variant="h5" component="h1">
          {translate('app.wallet.title')}
        </Typography>
        <Typography color="text.secondary">{translate('app.wallet.subtitle')}</Typography>
      </Box>
      <List
        resource="wallet"
        title={translate('app.wallet.title')}
        perPage={PAGE_SIZE}
        sort={{ field: 'createdAt', order: 'DESC' }}
        filters={walletFilters}
        actions={
          <TopToolbar>
            <ExportButton />
          </TopToolbar>
        }
        exporter={walletExporter}
        pagination={<ListPagination />}
        empty={false}
      >
        <WalletCards />
        <DataTable rowClick={false} bulkActionButtons={false} empty={<NoData />}>
          <DataTable.Col source="createdAt" disableSort render={(r: RaRecord) => formatDate(r.createdAt)} />
          <DataTable.Col source="kind" disableSort />
          <DataTable.Col source="transactionType" disableSort />
          <DataTable.Col source="amount" disableSort align="right" render={money('amount')} />
          <DataTable.Col source="status" disableSort />
          <DataTable.Col source="balance" disableSort align="right" render={money('balance')} />
          <DataTable.Col
            source="clearingBalance"
            disableSort
            align="right"
            render={money('clearingBalance')}
          />
          <DataTable.Col source="reference" disableSort />
        </DataTable>
      </List>
    </ResourceContextProvider>
  );
};
