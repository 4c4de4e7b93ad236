import { Box } from '@mui/material';
import { type RaRecord, useCanAccess } from 'react-admin';
import { TRANSACTION_TYPES } from '../../../shared/enums';
import { titleCase } from '../../../shared/format';
import { enumChoices } from '../../i18n/enums';
import { CodeChip } from '../../lists/CodeChip';
import { col } from '../../lists/columns';
import { FittedSelectInput } from '../../lists/FittedSelectInput';
import { ListPagination } from '../../lists/ListPagination';
import { LookupInput } from '../../lists/LookupInput';
import { ResourceList } from '../../lists/ResourceList';
import { AdjustButton, PayoutButton, SettleButton } from './LedgerActions';
import {
  dateTimeColumn,
  dayFilters,
  kindColumn,
  PostingTotals,
  referenceColumn,
  refusedDays,
} from './ledgerParts';
import { UserLookup, UserTypeInput } from './UserLookups';

/** Seed sections 2 and 9: the transaction list shows at most 5 page links. */
const TRANSACTION_PAGE_LINKS = 5;

/**
 * Seed section 2: name, mobile, email, amount, transaction type, balance, clearing balance, status; Tierdesk adds
 * the kind, the sale or payout reference (issue 43) and the date and time. Email and the date collapse on narrower
 * screens.
 */
export const TRANSACTION_COLUMNS = [
  col.name('name'),
  col.text('mobile'),
  col.text('email', { hideBelow: 'xl' }),
  kindColumn,
  referenceColumn,
  col.money('amount'),
  col.enum('transactionType', 'transactionType', {
    render: (r: RaRecord) => (
      <CodeChip
        group="transactionType"
        code={r.transactionType}
        color={r.transactionType === 'CREDIT' ? 'success' : 'default'}
      />
    ),
  }),
  col.money('balance'),
  col.money('clearingBalance'),
  col.enum('status', 'postingStatus'),
  dateTimeColumn({ hideBelow: 'lg' }),
];

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

/**
 * Seed section 2: user type, transaction type, a user (needs a user type first), bought product; Tierdesk adds a range
 * of days (issue 43).
 */
const transactionFilters = [
  <UserTypeInput key="userType" source="userType" withAdmin fitLabel alwaysOn />,
  <FittedSelectInput
    key="transactionType"
    source="transactionType"
    choices={enumChoices('transactionType', TRANSACTION_TYPES)}
    emptyText="app.transactions.allTransactionTypes"
    alwaysOn
  />,
  <UserLookup key="userId" source="userId" alwaysOn />,
  <BoughtProductFilter key="boughtProductId" source="boughtProductId" alwaysOn />,
  ...dayFilters,
];

/**
 * Seed section 2, transaction list (ADMIN): every posting, newest first, with the wallet's balances right after it;
 * 10 a page with at most 5 page links; CSV export; the money in and out of the whole filter above the table.
 * Settle, Record Payout and Adjust Wallet act on the ledger.
 */
export const TransactionList = () => {
  const { canAccess: canRunLedger } = useCanAccess({ resource: 'ledger', action: 'edit' });
  return (
    <ResourceList
      resource="transactions"
      texts="app.transactions"
      columns={TRANSACTION_COLUMNS}
      filters={transactionFilters}
      refusedFilters={refusedDays}
      toolbar={
        canRunLedger && (
          <>
            <SettleButton />
            <PayoutButton />
            <AdjustButton />
          </>
        )
      }
      pagination={<ListPagination maxLinks={TRANSACTION_PAGE_LINKS} />}
      header={<PostingTotals />}
    />
  );
};
