import { Box, Card, CardContent, Skeleton, Typography } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';
import { TRANSACTION_TYPES } from '../../../shared/enums';
import type { WireWallet } from '../../../shared/wire';
import { enumChoices } from '../../i18n/enums';
import { useFormat } from '../../i18n/format';
import { col } from '../../lists/columns';
import { FittedSelectInput } from '../../lists/FittedSelectInput';
import { ResourceList } from '../../lists/ResourceList';
import {
  dateTimeColumn,
  dayFilters,
  kindColumn,
  PostingTotals,
  referenceColumn,
  refusedDays,
} from '../transactions/ledgerParts';

/**
 * The caller's postings, newest first in the order they were written: date and time, kind, transaction type,
 * amount, status, the balances right after it (a running balance: each row's is the one below it plus or minus
 * its amount, and the top row's is the card's), the sale or payout reference (a sale's links to its page).
 */
export const WALLET_COLUMNS = [
  dateTimeColumn({ label: 'app.wallet.dateNewestFirst' }),
  kindColumn,
  col.enum('transactionType', 'transactionType'),
  col.money('amount'),
  col.enum('status', 'postingStatus'),
  col.money('balance'),
  col.money('clearingBalance'),
  { ...referenceColumn, hideBelow: 'md' as const },
];

const walletFilters = [
  <FittedSelectInput
    key="transactionType"
    source="transactionType"
    choices={enumChoices('transactionType', TRANSACTION_TYPES)}
    emptyText="app.transactions.allTransactionTypes"
    alwaysOn
  />,
  ...dayFilters,
];

/**
 * The two balances wallet/fetch answers beside the postings (the list's `meta.wallet`). A negative available
 * balance is what the wallet owes the network (a reversal after payout): shown in red and said so; the next
 * commissions recover it first.
 */
const WalletCards = () => {
  const translate = useTranslate();
  const format = useFormat();
  const { meta, isPending } = useListContext();
  const wallet = (meta as { wallet?: WireWallet } | undefined)?.wallet;
  const owes = (wallet?.balance ?? 0) < 0;
  const cards: { label: string; value: number | undefined; hint: string; owed?: boolean }[] = [
    {
      label: owes ? 'app.wallet.owed' : 'app.wallet.balance',
      value: wallet?.balance,
      hint: owes ? 'app.wallet.owedHint' : 'app.wallet.balanceHint',
      owed: owes,
    },
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
      {cards.map(({ label, value, hint, owed }) => (
        <Card
          component="li"
          key={label}
          aria-label={translate(label)}
          variant="outlined"
          sx={owed ? { borderColor: 'error.main' } : undefined}
        >
          <CardContent>
            <Typography color={owed ? 'error' : 'text.secondary'} sx={{ fontSize: 14 }}>
              {translate(label)}
            </Typography>
            <Typography
              component="p"
              variant="h4"
              color={owed ? 'error' : undefined}
              sx={{ fontWeight: 600, mt: 1 }}
            >
              {value !== undefined ? (
                format.rupees(value)
              ) : isPending ? (
                <Skeleton width={120} aria-label={translate('ra.page.loading')} />
              ) : (
                // Not loaded: no figure rather than a misleading zero.
                '—'
              )}
            </Typography>
            <Typography variant="body2" color={owed ? 'error' : 'text.secondary'}>
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
 * postings, newest first, 10 a page, filtered by transaction type and days, with the money in and out of the
 * whole filter. The server scopes it to the session.
 */
export const WalletPage = () => (
  <ResourceList
    resource="wallet"
    texts="app.wallet"
    columns={WALLET_COLUMNS}
    filters={walletFilters}
    refusedFilters={refusedDays}
    header={
      <>
        <WalletCards />
        <PostingTotals />
      </>
    }
  />
);
