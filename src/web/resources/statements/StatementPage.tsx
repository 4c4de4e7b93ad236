import DownloadIcon from '@mui/icons-material/Download';
import {
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { MONTH_PATTERN, monthOf } from '../../../shared/constants/statements';
import { BUSINESS_TIME_ZONE } from '../../../shared/dates';
import { formatDate, titleCase } from '../../../shared/format';
import { FILTER_YEARS } from '../../../shared/rules';
import type { Statement, StatementLine } from '../../../shared/schemas/statements';
import { useEnumText } from '../../i18n/enums';
import { useDocumentLanguage, useFormat } from '../../i18n/format';
import { saveFile } from '../../layout/saveFile';
import { useNotifyError } from '../../layout/useNotifyError';
import { LoadError } from '../../lists/ListError';
import type { AppDataProvider } from '../../providers/dataProvider';
import { getStoredUser } from '../../providers/session';

/** The opening or closing balances: available and clearing. */
const BalancesCard = ({
  label,
  balances,
  loading,
}: {
  label: string;
  balances: Statement['opening'] | undefined;
  loading: boolean;
}) => {
  const translate = useTranslate();
  const format = useFormat();
  const figure = (value: number | undefined) =>
    value !== undefined ? (
      format.rupees(value)
    ) : loading ? (
      <Skeleton width={100} aria-label={translate('ra.page.loading')} />
    ) : (
      '—'
    );
  return (
    <Card component="li" variant="outlined" aria-label={translate(label)}>
      <CardContent>
        <Typography color="text.secondary" sx={{ fontSize: 14 }}>
          {translate(label)}
        </Typography>
        <Typography component="p" variant="h5" sx={{ fontWeight: 600, mt: 1 }}>
          {figure(balances?.balance)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('app.statements.available')}
        </Typography>
        <Typography component="p" variant="h6" sx={{ mt: 1 }}>
          {figure(balances?.clearingBalance)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('app.statements.clearing')}
        </Typography>
      </CardContent>
    </Card>
  );
};

/** The statement's columns: heading key and the cell of a line. Figures right-aligned. */
const useColumns = () => {
  const enumText = useEnumText();
  const format = useFormat();
  const money = (value: number | null | undefined) =>
    value === null || value === undefined ? '' : format.rupees(value);
  const columns: { key: string; numeric?: boolean; cell: (l: StatementLine) => string }[] = [
    // A line's time as the statement counts it: India's calendar (the ledger's business time zone).
    {
      key: 'date',
      cell: (l) => formatDate(l.createdAt, { locale: format.locale, timeZone: BUSINESS_TIME_ZONE }),
    },
    { key: 'kind', cell: (l) => enumText('postingKind', l.kind) },
    { key: 'balanceType', cell: (l) => enumText('walletBalance', l.balanceType) },
    { key: 'reference', cell: (l) => l.reference ?? '' },
    { key: 'product', cell: (l) => l.product ?? '' },
    {
      key: 'customer',
      cell: (l) => (l.customer ? `${titleCase(l.customer.name)} ${l.customer.mobile ?? ''}`.trim() : ''),
    },
    { key: 'credit', numeric: true, cell: (l) => (l.transactionType === 'CREDIT' ? money(l.amount) : '') },
    { key: 'debit', numeric: true, cell: (l) => (l.transactionType === 'DEBIT' ? money(l.amount) : '') },
    { key: 'tax', numeric: true, cell: (l) => money(l.tax) },
    { key: 'balance', numeric: true, cell: (l) => money(l.balance) },
    { key: 'clearingBalance', numeric: true, cell: (l) => money(l.clearingBalance) },
  ];
  return columns;
};

const LinesTable = ({ statement }: { statement: Statement }) => {
  const translate = useTranslate();
  const columns = useColumns();
  if (statement.lines.length === 0)
    return (
      <Typography role="status" sx={{ p: 3, textAlign: 'center' }} color="text.secondary">
        {translate('app.statements.empty')}
      </Typography>
    );
  const label = translate('app.statements.tableLabel', { month: statement.month });
  return (
    // Scrolls sideways inside its card on a narrow screen instead of widening the page (`contain: inline-size`
    // keeps the table's width out of the layout's sizing, as the lists' tables do); focusable, so the keyboard
    // can scroll it too.
    <TableContainer
      tabIndex={0}
      role="region"
      aria-label={label}
      sx={{ overflowX: 'auto', contain: 'inline-size' }}
    >
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c.key} align={c.numeric ? 'right' : 'left'} sx={{ whiteSpace: 'nowrap' }}>
                {translate(`app.statements.columns.${c.key}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {statement.lines.map((line) => (
            <TableRow key={line._id}>
              {columns.map((c) => (
                <TableCell key={c.key} align={c.numeric ? 'right' : 'left'} sx={{ whiteSpace: 'nowrap' }}>
                  {c.cell(line)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
};

/**
 * Statements (issue 43): a month of one tier user's wallet, as the server answers it (statements/fetch): the
 * opening balances, every posting with its sale or payout, the closing balances; CSV and PDF downloads. A tier user
 * opens its own from the menu; staff open a user's from its row (`/statements/:userId`). The month is India's
 * calendar, this month first.
 */
export const StatementPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const lang = useDocumentLanguage();
  const params = useParams<{ userId?: string }>();
  const userId = params.userId ?? getStoredUser()?._id ?? '';
  const [month, setMonth] = useState(() => monthOf(new Date()));
  const validMonth = MONTH_PATTERN.test(month);
  const query = useQuery({
    queryKey: ['statements', 'fetch', { userId, month }],
    queryFn: () => dataProvider.getStatement(userId, month),
    enabled: Boolean(userId) && validMonth,
    retry: false,
  });
  useNotifyError(query.error);
  const download = useMutation({
    mutationFn: (format: 'csv' | 'pdf') => dataProvider.getStatementFile(userId, month, format, lang),
    onSuccess: (blob, format) => saveFile(blob, `statement-${month}.${format}`),
    onError: (error: Error) => notify(error.message, { type: 'error' }),
  });
  const statement = query.data;
  const ownerName = statement && params.userId ? titleCase(statement.user.name) : undefined;
  const loading = query.isPending && query.fetchStatus !== 'idle';

  const title = ownerName
    ? translate('app.statements.titleOf', { name: ownerName })
    : translate('app.statements.title');

  return (
    <Box sx={{ pt: 2, pb: 3 }}>
      {/* The app bar's title too: without it the app bar held an empty heading. */}
      <Title title={title} />
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      <Typography color="text.secondary">{translate('app.statements.subtitle')}</Typography>

      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ mt: 2, alignItems: { xs: 'stretch', sm: 'center' } }}
      >
        <TextField
          type="month"
          label={translate('app.statements.month')}
          value={month}
          onChange={(event) => setMonth(event.target.value)}
          error={!validMonth}
          helperText={validMonth ? undefined : translate('app.statements.monthHint')}
          size="small"
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { min: `${FILTER_YEARS.first}-01`, max: `${FILTER_YEARS.last}-12` },
          }}
        />
        {(['csv', 'pdf'] as const).map((format) => {
          const busy = download.isPending && download.variables === format;
          return (
            <Button
              key={format}
              variant="outlined"
              startIcon={busy ? <CircularProgress size={16} /> : <DownloadIcon />}
              disabled={!statement || download.isPending}
              onClick={() => download.mutate(format)}
            >
              {translate(busy ? 'app.statements.downloading' : `app.statements.download.${format}`)}
            </Button>
          );
        })}
      </Stack>

      {query.isError && (
        <LoadError
          text="app.statements.loadError"
          retry={() => query.refetch()}
          busy={query.isFetching}
          sx={{ mt: 2 }}
        />
      )}

      {!query.isError && (
        <>
          <Box
            component="ul"
            aria-label={translate('app.statements.balances')}
            sx={{
              listStyle: 'none',
              p: 0,
              my: 2,
              display: 'grid',
              gap: 2,
              gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
            }}
          >
            <BalancesCard label="app.statements.opening" balances={statement?.opening} loading={loading} />
            <BalancesCard label="app.statements.closing" balances={statement?.closing} loading={loading} />
          </Box>
          {loading && (
            <Stack direction="row" spacing={1} role="status" sx={{ alignItems: 'center', p: 2 }}>
              <CircularProgress size={16} />
              <Typography variant="body2">{translate('app.statements.loading')}</Typography>
            </Stack>
          )}
          {statement && (
            <Card variant="outlined">
              <LinesTable statement={statement} />
            </Card>
          )}
        </>
      )}
    </Box>
  );
};
