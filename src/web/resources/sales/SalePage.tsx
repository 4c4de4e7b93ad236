import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Title, useCanAccess, useGetOne, useTranslate } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { titleCase } from '../../../shared/format';
import { useEnumText } from '../../i18n/enums';
import { useFormat } from '../../i18n/format';
import { Facts, SectionCard } from '../../layout/SectionCard';
import { useNotifyError } from '../../layout/useNotifyError';
import { type FittedColumn, FittedTable } from '../../lists/FittedTable';
import { NoData } from '../../lists/NoData';
import type { SaleRecord, TransactionRecord } from '../../providers/ledger';
import { TRANSACTION_LIST_PATH } from '../transactions/paths';
import { SALE_LIST_PATH } from './paths';
import { useReopenSale } from './reopen';
import { SaleStatusChip } from './SaleChips';
import { ReceiptButton } from './SaleReceipt';

/** A PENDING sale whose account opening the customer has not finished: its partner page again, in a new tab. */
const ReopenButton = ({ sale }: { sale: SaleRecord }) => {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'sales', action: 'create' });
  const { reopen, isPending } = useReopenSale();
  if (sale.status !== 'PENDING' || !canAccess) return null;
  return (
    <Button
      variant="contained"
      startIcon={<OpenInNewIcon />}
      disabled={isPending}
      onClick={() => reopen(sale.id)}
      sx={{ mt: 2 }}
    >
      {translate('app.sales.reopen')}
    </Button>
  );
};

const field = (name: string) => `resources.sales.fields.${name}`;

/** The commission split frozen when the sale was recorded: tier, who receives it, percent and rupees. */
const Split = ({ sale }: { sale: SaleRecord }) => {
  const translate = useTranslate();
  const format = useFormat();
  if (sale.split.length === 0) return <NoData />;
  type Share = SaleRecord['split'][number];
  const columns: FittedColumn<Share>[] = [
    { key: 'tier', label: 'app.sales.tier', cell: (share) => translate(`app.sales.tiers.${share.tier}`) },
    { key: 'receiver', label: 'app.sales.receiver', cell: (share) => titleCase(share.user?.name) },
    { key: 'percent', label: 'app.sales.percent', cell: (share) => `${share.percent}%`, align: 'right' },
    { key: 'amount', label: field('amount'), cell: (share) => format.rupees(share.amount), align: 'right' },
  ];
  return (
    <FittedTable
      label={translate('app.sales.split')}
      columns={columns}
      rows={sale.split}
      rowKey={(share) => share.tier}
    />
  );
};

const posting = (name: string) => `resources.transactions.fields.${name}`;

/** The sale's postings, oldest first: commissions to clearing, then settlements, reversals. */
const Postings = ({ postings }: { postings: TransactionRecord[] | undefined }) => {
  const translate = useTranslate();
  const format = useFormat();
  const codeText = useEnumText();
  // A row cached from the list has no postings until the sale itself arrives.
  if (!postings) return <CircularProgress size={20} aria-label={translate('app.sales.loading')} />;
  if (postings.length === 0)
    return <Typography color="text.secondary">{translate('app.sales.noPostings')}</Typography>;
  const columns: FittedColumn<TransactionRecord>[] = [
    { key: 'createdAt', label: posting('createdAt'), cell: (row) => format.date(row.createdAt) },
    { key: 'name', label: posting('name'), cell: (row) => titleCase(row.name) },
    {
      key: 'tier',
      label: 'app.sales.tier',
      cell: (row) => (row.tier ? translate(`app.sales.tiers.${row.tier}`) : ''),
    },
    { key: 'kind', label: posting('kind'), cell: (row) => codeText('postingKind', row.kind) },
    {
      key: 'transactionType',
      label: posting('transactionType'),
      cell: (row) => codeText('transactionType', row.transactionType),
    },
    { key: 'amount', label: posting('amount'), cell: (row) => format.rupees(row.amount), align: 'right' },
    { key: 'status', label: posting('status'), cell: (row) => codeText('postingStatus', row.status) },
  ];
  return (
    <FittedTable
      label={translate('app.sales.postings')}
      columns={columns}
      rows={postings}
      rowKey={(row) => row.id}
    />
  );
};

const SaleView = ({ id }: { id: string }) => {
  const translate = useTranslate();
  const format = useFormat();
  const codeText = useEnumText();
  // No retries: an unknown sale is a 404 (already toasted), and the page says so at once.
  const { data: sale, isPending, error } = useGetOne<SaleRecord>('sales', { id }, { retry: false });
  useNotifyError(error);
  const { canAccess: canSeeTransactions } = useCanAccess({ resource: 'transactions', action: 'list' });
  const back = (
    <Button component={RouterLink} to={SALE_LIST_PATH} startIcon={<ArrowBackIcon />}>
      {translate('app.sales.back')}
    </Button>
  );
  if (isPending) return <CircularProgress sx={{ m: 3 }} aria-label={translate('app.sales.loading')} />;
  if (error || !sale)
    return (
      <Stack spacing={2} sx={{ pt: 2 }}>
        <Alert severity="error">{translate('app.sales.loadFailed')}</Alert>
        <Box>{back}</Box>
      </Stack>
    );
  const transactionsOfSale = `${TRANSACTION_LIST_PATH}?filter=${encodeURIComponent(
    JSON.stringify({ boughtProductId: sale.id }),
  )}`;
  return (
    <Stack spacing={2} sx={{ pt: 2, pb: 3 }}>
      <Title title={translate('app.sales.pageTitle', { code: sale.utmCode })} />
      <Box>
        {back}
        <Stack
          direction="row"
          spacing={2}
          useFlexGap
          sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
        >
          <Box>
            <Typography variant="h5" component="h1">
              {translate('app.sales.pageTitle', { code: sale.utmCode })}
            </Typography>
            <Typography color="text.secondary">{translate('app.sales.pageSubtitle')}</Typography>
          </Box>
          <ReceiptButton sale={{ id: sale.id, utmCode: sale.utmCode }} />
        </Stack>
      </Box>
      <SectionCard title="app.sales.details">
        <Facts
          rows={[
            [field('status'), <SaleStatusChip key="status" status={sale.status} />],
            [field('customer.name'), titleCase(sale.customer?.name)],
            [field('retailer.name'), titleCase(sale.retailer?.name)],
            [field('product.name'), titleCase(sale.product?.name)],
            [field('provider.name'), titleCase(sale.provider?.name)],
            [field('accountType'), codeText('accountType', sale.accountType)],
            [field('amount'), format.rupees(sale.amount)],
            [field('utmCode'), sale.utmCode],
            [field('merchantCode'), sale.merchantCode],
            [field('soldBy.name'), titleCase(sale.soldBy?.name)],
            [field('createdAt'), format.date(sale.createdAt)],
            [field('confirmedAt'), format.date(sale.confirmedAt)],
            ...(sale.failedAt
              ? [[field('failedAt'), format.date(sale.failedAt)] as [string, ReactNode]]
              : []),
            ...(sale.reversedAt
              ? [[field('reversedAt'), format.date(sale.reversedAt)] as [string, ReactNode]]
              : []),
          ]}
        />
        <ReopenButton sale={sale} />
      </SectionCard>
      <SectionCard title="app.sales.split">
        <Split sale={sale} />
      </SectionCard>
      <SectionCard title="app.sales.postings">
        <Postings postings={sale.postings} />
        {canSeeTransactions && (
          <Button component={RouterLink} to={transactionsOfSale} sx={{ mt: 1 }}>
            {translate('app.sales.openTransactions')}
          </Button>
        )}
      </SectionCard>
    </Stack>
  );
};

/**
 * /sale/:id: one sale, its frozen split and its postings (`bought_products/fetch?_id=`). App mounts it behind the
 * role table's `sales` show check, as every seed-path screen.
 */
export const SalePage = () => {
  const { id = '' } = useParams();
  return <SaleView id={id} />;
};
