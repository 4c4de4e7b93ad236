import DoneAllIcon from '@mui/icons-material/DoneAll';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  List,
  ListItem,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Confirm, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { titleCase } from '../../../shared/format';
import type { ReconcileRun, SettlePreview } from '../../../shared/schemas/books';
import { SALES_MSG } from '../../../shared/schemas/sales';
import { useFormat } from '../../i18n/format';
import { ReportPage } from '../../layout/ReportPage';
import { Facts, SectionCard } from '../../layout/SectionCard';
import { useNotifyError } from '../../layout/useNotifyError';
import { LoadError } from '../../lists/ListError';
import type { AppDataProvider } from '../../providers/dataProvider';

const BOOKS_KEY = ['books', 'fetch'];
const PREVIEW_KEY = ['books', 'settlePreview'];

/** The latest reconcile run (on any server): when, by whom, and whether the books held, with every finding. */
const ReconcileResult = ({ run }: { run: ReconcileRun | null }) => {
  const translate = useTranslate();
  const format = useFormat();
  if (!run) return <Typography color="text.secondary">{translate('app.books.neverRun')}</Typography>;
  const who = run.ranBy ? titleCase(run.ranBy.name) : translate('app.books.commandLine');
  const findings = run.report.breaks;
  return (
    <Stack spacing={1.5}>
      {run.ok ? (
        <Alert severity="success">{translate('app.books.ok')}</Alert>
      ) : (
        <Alert severity="error">
          <AlertTitle>{translate('app.books.findings', { smart_count: findings.length })}</AlertTitle>
          <List dense disablePadding aria-label={translate('app.books.findingsList')}>
            {findings.map((finding) => (
              <ListItem key={`${finding.check}: ${finding.detail}`} disableGutters>
                <ListItemText primary={finding.detail} />
              </ListItem>
            ))}
          </List>
        </Alert>
      )}
      <Facts
        rows={[
          ['app.books.ranAt', format.date(run.ranAt)],
          ['app.books.ranBy', who],
          ['app.books.postings', format.count(run.report.postings)],
          ['app.books.wallets', format.count(run.report.wallets)],
        ]}
      />
    </Stack>
  );
};

/** Run: proves the ledger now on the server, records the run, and shows it (progress while it runs). */
const RunButton = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<AppDataProvider>();
  const run = useMutation({
    mutationFn: () => dataProvider.runReconcile(),
    onSuccess: (result) => {
      notify(result.ok ? 'app.books.runOk' : 'app.books.runBroken', {
        type: result.ok ? 'success' : 'warning',
      });
      return queryClient.invalidateQueries({ queryKey: BOOKS_KEY });
    },
    onError: (error) => notify(error.message, { type: 'error' }),
  });
  return (
    <Button
      variant="contained"
      size="small"
      disabled={run.isPending}
      startIcon={run.isPending ? <CircularProgress size={16} color="inherit" /> : <PlayArrowIcon />}
      onClick={() => run.mutate()}
    >
      {translate(run.isPending ? 'app.books.running' : 'app.books.run')}
    </Button>
  );
};

const Figure = ({
  label,
  value,
  hint,
  alarm,
}: {
  label: string;
  value: number;
  hint: string;
  alarm?: boolean;
}) => {
  const translate = useTranslate();
  const format = useFormat();
  return (
    <Card
      component="li"
      variant="outlined"
      aria-label={translate(label)}
      sx={alarm ? { borderColor: 'error.main' } : undefined}
    >
      <CardContent>
        <Typography color={alarm ? 'error' : 'text.secondary'} sx={{ fontSize: 14 }}>
          {translate(label)}
        </Typography>
        <Typography
          component="p"
          variant="h5"
          color={alarm ? 'error' : undefined}
          sx={{ fontWeight: 600, mt: 1 }}
        >
          {format.rupees(value)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate(hint)}
        </Typography>
      </CardContent>
    </Card>
  );
};

/** What settle all would move: commissions, users, rupees and the tax withheld. */
const PreviewFacts = ({ preview }: { preview: SettlePreview }) => {
  const format = useFormat();
  return (
    <Facts
      rows={[
        ['app.books.previewCommissions', format.count(preview.settled)],
        ['app.books.previewUsers', format.count(preview.users)],
        ['app.books.previewAmount', format.rupees(preview.amount)],
        ['app.books.previewTds', format.rupees(preview.tds)],
      ]}
    />
  );
};

/**
 * The preview of settle all (the server rehearses the settlement and rolls it back), and the settle-all command
 * behind a confirm dialog that shows the preview again, read afresh when it opens.
 */
const SettleAll = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [open, setOpen] = useState(false);
  const preview = useQuery({
    queryKey: PREVIEW_KEY,
    queryFn: () => dataProvider.getSettlePreview(),
    retry: false,
  });
  useNotifyError(preview.error);
  const settle = useMutation({ mutationFn: () => dataProvider.settleWallets() });
  const openDialog = () => {
    setOpen(true);
    void preview.refetch();
  };
  const confirm = () =>
    settle.mutate(undefined, {
      onSuccess: ({ result, message }) => {
        if (!result && !message) return;
        notify(message ?? SALES_MSG.settled(result?.settled ?? 0), { type: 'success' });
        setOpen(false);
        void queryClient.invalidateQueries({ queryKey: ['books'] });
      },
      onError: (error) => notify(error.message, { type: 'error' }),
    });
  const data = preview.data;
  const nothing = data !== undefined && data.settled === 0;
  let body: ReactNode;
  if (preview.isPending || (preview.isFetching && !data))
    body = <CircularProgress size={24} aria-label={translate('app.books.previewLoading')} />;
  else if (preview.isError)
    body = (
      <LoadError text="app.books.previewFailed" retry={() => preview.refetch()} busy={preview.isFetching} />
    );
  else if (nothing)
    body = <Typography color="text.secondary">{translate('app.books.nothingToSettle')}</Typography>;
  else if (data) body = <PreviewFacts preview={data} />;
  return (
    <SectionCard
      title="app.books.settleAll"
      action={
        <Button
          size="small"
          variant="outlined"
          startIcon={<DoneAllIcon />}
          disabled={!data || nothing}
          onClick={openDialog}
        >
          {translate('app.books.settleAllButton')}
        </Button>
      }
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {translate('app.books.settleHint')}
      </Typography>
      {body}
      <Confirm
        isOpen={open}
        loading={settle.isPending}
        title="app.books.settleTitle"
        content={
          <Stack spacing={1.5}>
            <Typography>{translate('app.books.settleText')}</Typography>
            {preview.isFetching ? (
              <CircularProgress size={24} aria-label={translate('app.books.previewLoading')} />
            ) : data ? (
              <PreviewFacts preview={data} />
            ) : null}
          </Stack>
        }
        confirm="app.books.settleAllButton"
        cancel="app.list.cancel"
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </SectionCard>
  );
};

/**
 * Books (ADMIN, issue 43): the latest reconcile result with Run, the admin's own wallet, TDS payable, what wallets
 * owe the network, and a preview of settle all before it moves anything. The server refuses every other role.
 */
export const BooksPage = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const books = useQuery({ queryKey: BOOKS_KEY, queryFn: () => dataProvider.getBooks(), retry: false });
  useNotifyError(books.error);
  const data = books.data;
  return (
    <ReportPage texts="app.books">
      {books.isPending ? (
        <CircularProgress sx={{ m: 3 }} aria-label={translate('app.books.loading')} />
      ) : books.isError || !data ? (
        <LoadError text="app.books.loadFailed" retry={() => books.refetch()} busy={books.isFetching} />
      ) : (
        <>
          <SectionCard title="app.books.reconcile" action={<RunButton />}>
            <ReconcileResult run={data.reconcile} />
          </SectionCard>
          <Box
            component="ul"
            aria-label={translate('app.books.balances')}
            sx={{
              listStyle: 'none',
              p: 0,
              m: 0,
              display: 'grid',
              gap: 2,
              gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
            }}
          >
            <Figure
              label="app.books.walletBalance"
              value={data.wallet.balance}
              hint="app.books.walletBalanceHint"
              alarm={data.wallet.balance < 0}
            />
            <Figure
              label="app.books.walletClearing"
              value={data.wallet.clearingBalance}
              hint="app.books.walletClearingHint"
            />
            <Figure label="app.books.tdsPayable" value={data.tdsPayable} hint="app.books.tdsPayableHint" />
            <Figure
              label="app.books.owed"
              value={data.owed}
              hint="app.books.owedHint"
              alarm={data.owed > 0}
            />
          </Box>
          <SettleAll />
        </>
      )}
    </ReportPage>
  );
};
