import { Box, Card, CardContent, Skeleton, Typography } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';
import { TRANSACTION_TYPES } from '../../../shared/enums';
import { formatRupees } from '../../../shared/format';
import type { WireWallet } from '../../../shared/wire';
import { enumChoices } from '../../i18n/enums';
import { col } from '../../lists/columns';
import { FittedSelectInput } from '../../lists/FittedSelectInput';
import { ResourceList } from '../../lists/ResourceList';

/** The caller's postings: date, kind, transaction type, amount, status, the balances after it, the reference. */
export const WALLET_COLUMNS = [
  col.date('createdAt'),
  col.enum('kind', 'postingKind'),
  col.enum('transactionType', 'transactionType'),
  col.money('amount'),
  col.enum('status', 'postingStatus'),
  col.money('balance'),
  col.money('clearingBalance'),
  col.text('reference', { hideBelow: 'md' }),
];

const walletFilters = [
  <FittedSelectInput
    key="transactionType"
    source="transactionType"
    choices={enumChoices('transactionType', TRANSACTION_TYPES)}
    emptyText="app.transactions.allTransactionTypes"
    alwaysOn
  />,
];

/** The two balances wallet/fetch answers beside the postings (the list's `meta.wallet`). */
const WalletCards = () => {
  const translate = useTranslate();
  const { meta, isPending } = useListContext();
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
                // Not loaded: no figure rather than a misleading zero.
                '—'
              )}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {translate(hint)}
            </Typography>
          </CardContent>
        </Card>
      ))}
    </Box>
  );
};

/**
 * My wallet (master distributors, distributors, retailers): the caller's balance and clearing balance and its own
 * postings, newest first, 10 a page, filtered by transaction type. The server scopes it to the session.
 */
export const WalletPage = () => (
  <ResourceList
    resource="wallet"
    texts="app.wallet"
    columns={WALLET_COLUMNS}
    filters={walletFilters}
    header={<WalletCards />}
  />
);
