import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Fragment, type ReactNode } from 'react';
import { Title, useCanAccess, useGetOne, useTranslate } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { DATE_TIME, formatDate, formatRupees, titleCase } from '../../../shared/format';
import { useNotifyError } from '../../layout/useNotifyError';
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

const dateTime = (value: unknown) => formatDate(value, DATE_TIME);

const field = (name: string) => `resources.sales.fields.${name}`;

const Facts = ({ rows }: { rows: [string, ReactNode][] }) => {
  const translate = useTranslate();
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
        columnGap: 3,
        rowGap: 0.75,
        m: 0,
        '& dt': { color: 'text.secondary' },
        '& dd': { m: 0, wordBreak: 'break-word' },
      }}
    >
      {rows.map(([label, value]) => (
        <Fragment key={label}>
          <dt>{translate(label)}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </Box>
  );
};

const Section = ({ title, children }: { title: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Card component="section" aria-label={translate(title)}>
      <CardContent>
        <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
          {translate(title)}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
};

/** The commission split frozen when the sale was recorded: tier, who receives it, percent and rupees. */
const Split = ({ sale }: { sale: SaleRecord }) => {
  const translate = useTranslate();
  if (sale.split.length === 0) return <NoData />;
  return (
    <TableContainer>
      <Table size="small" aria-label={translate('app.sales.split')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.sales.tier')}</TableCell>
            <TableCell>{translate('app.sales.receiver')}</TableCell>
            <TableCell align="right">{translate('app.sales.percent')}</TableCell>
            <TableCell align="right">{translate(field('amount'))}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {sale.split.map((share) => (
            <TableRow key={share.tier}>
              <TableCell>{translate(`app.sales.tiers.${share.tier}`)}</TableCell>
              <TableCell>{titleCase(share.user?.name)}</TableCell>
              <TableCell align="right">{share.percent}%</TableCell>
              <TableCell align="right">{formatRupees(share.amount)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
};

/** The sale's postings, oldest first: commissions to clearing, then settlements, reversals. */
const Postings = ({ postings }: { postings: TransactionRecord[] | undefined }) => {
  const translate = useTranslate();
  // A row cached from the list has no postings until the sale itself arrives.
  if (!postings) return <CircularProgress size={20} aria-label={translate('app.sales.loading')} />;
  if (postings.length === 0)
    return <Typography color="text.secondary">{translate('app.sales.noPostings')}</Typography>;
  const t = (name: string) => translate(`resources.transactions.fields.${name}`);
  return (
    <TableContainer>
      <Table size="small" aria-label={translate('app.sales.postings')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('createdAt')}</TableCell>
            <TableCell>{t('name')}</TableCell>
            <TableCell>{translate('app.sales.tier')}</TableCell>
            <TableCell>{t('kind')}</TableCell>
            <TableCell>{t('transactionType')}</TableCell>
            <TableCell align="right">{t('amount')}</TableCell>
            <TableCell>{t('status')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {postings.map((posting) => (
            <TableRow key={posting.id}>
              <TableCell>{dateTime(posting.createdAt)}</TableCell>
              <TableCell>{titleCase(posting.name)}</TableCell>
              <TableCell>{posting.tier ? translate(`app.sales.tiers.${posting.tier}`) : ''}</TableCell>
              <TableCell>{posting.kind}</TableCell>
              <TableCell>{posting.transactionType}</TableCell>
              <TableCell align="right">{formatRupees(posting.amount)}</TableCell>
              <TableCell>{posting.status}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
};

const SaleView = ({ id }: { id: string }) => {
  const translate = useTranslate();
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
      <Section title="app.sales.details">
        <Facts
          rows={[
            [field('status'), <SaleStatusChip key="status" status={sale.status} />],
            [field('customer.name'), titleCase(sale.customer?.name)],
            [field('retailer.name'), titleCase(sale.retailer?.name)],
            [field('product.name'), titleCase(sale.product?.name)],
            [field('provider.name'), titleCase(sale.provider?.name)],
            [field('accountType'), sale.accountType ?? ''],
            [field('amount'), formatRupees(sale.amount)],
            [field('utmCode'), sale.utmCode],
            [field('merchantCode'), sale.merchantCode],
            [field('soldBy.name'), titleCase(sale.soldBy?.name)],
            [field('createdAt'), dateTime(sale.createdAt)],
            [field('confirmedAt'), dateTime(sale.confirmedAt)],
            ...(sale.failedAt ? [[field('failedAt'), dateTime(sale.failedAt)] as [string, ReactNode]] : []),
            ...(sale.reversedAt
              ? [[field('reversedAt'), dateTime(sale.reversedAt)] as [string, ReactNode]]
              : []),
          ]}
        />
        <ReopenButton sale={sale} />
      </Section>
      <Section title="app.sales.split">
        <Split sale={sale} />
      </Section>
      <Section title="app.sales.postings">
        <Postings postings={sale.postings} />
        {canSeeTransactions && (
          <Button component={RouterLink} to={transactionsOfSale} sx={{ mt: 1 }}>
            {translate('app.sales.openTransactions')}
          </Button>
        )}
      </Section>
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
