import DownloadIcon from '@mui/icons-material/Download';
import PostAddIcon from '@mui/icons-material/PostAdd';
import {
  Button,
  CircularProgress,
  DialogContentText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DateInput, useCanAccess, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { TDS_QUARTERS } from '../../../shared/constants/tds';
import { formatRupees, titleCase } from '../../../shared/format';
import { DEFAULT_MAX_AMOUNT_PAISE } from '../../../shared/money';
import { TDS_MSG, type TdsFetchResult, tdsDepositSchemaFor } from '../../../shared/schemas/tds';
import { FormDialog } from '../../forms/FormDialog';
import { DigitsInput, RupeesInput } from '../../forms/inputs';
import { requiredMark, schemaValidator } from '../../forms/schemaValidator';
import { useDocumentLanguage, useFormat } from '../../i18n/format';
import { PdfButton, useDownload } from '../../layout/download';
import { ReportPage } from '../../layout/ReportPage';
import { SectionCard } from '../../layout/SectionCard';
import { type FittedColumn, FittedTable } from '../../lists/FittedTable';
import { QueryView } from '../../lists/ListError';
import type { AppDataProvider, TdsPeriod } from '../../providers/dataProvider';
import { indiaDay, periodOfDay, recentYears } from './period';

type Values = Record<string, unknown>;
const blank = (value: unknown) => value === undefined || value === null || String(value).trim() === '';

/** The server's deposit rules and messages (tdsDepositSchemaFor), the date bounded by India's today. */
export const validateDeposit = schemaValidator(
  tdsDepositSchemaFor(DEFAULT_MAX_AMOUNT_PAISE, () => indiaDay()),
  {
    toInput: (values: Values) => ({
      bsrCode: values.bsrCode ?? undefined,
      challanSerial: values.challanSerial ?? undefined,
      date: blank(values.date) ? undefined : String(values.date),
      amount: blank(values.amount) ? undefined : String(values.amount).trim(),
    }),
  },
);

/** The financial year and quarter to show: this quarter at first. */
const PeriodPicker = ({ period, onChange }: { period: TdsPeriod; onChange: (next: TdsPeriod) => void }) => {
  const translate = useTranslate();
  const years = recentYears(indiaDay());
  return (
    // One under the other on a phone, each as wide as the page (wrapped, the Quarter sat out of line).
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <TextField
        select
        size="small"
        label={translate('app.tds.fy')}
        value={period.fy}
        onChange={(event) => onChange({ ...period, fy: event.target.value })}
        sx={{ minWidth: 140 }}
      >
        {(years.includes(period.fy) ? years : [period.fy, ...years]).map((fy) => (
          <MenuItem key={fy} value={fy}>
            {fy}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={translate('app.tds.quarter')}
        value={period.quarter}
        onChange={(event) => onChange({ ...period, quarter: event.target.value })}
        sx={{ minWidth: 200 }}
      >
        {TDS_QUARTERS.map((quarter) => (
          <MenuItem key={quarter} value={quarter}>
            {translate(`app.tds.quarters.${quarter}`)}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
};

/** The quarter's deductees (Form 26Q's deductee columns), each with its certificate as a PDF. */
const Deductees = ({ period, report }: { period: TdsPeriod; report: TdsFetchResult }) => {
  const translate = useTranslate();
  const format = useFormat();
  const download = useDownload();
  const lang = useDocumentLanguage();
  if (report.deductees.length === 0)
    return (
      <Typography role="status" color="text.secondary">
        {translate('app.tds.noDeductees')}
      </Typography>
    );
  const busyFor = (userId: string) => download.isPending && download.variables?.query.userId === userId;
  type Deductee = TdsFetchResult['deductees'][number];
  const columns: FittedColumn<Deductee>[] = [
    { key: 'name', label: 'app.tds.name', cell: (d) => titleCase(d.name) },
    { key: 'pan', label: 'app.tds.pan', cell: (d) => d.panId ?? translate('app.tds.noPan') },
    { key: 'credited', label: 'app.tds.credited', cell: (d) => formatRupees(d.credited), align: 'right' },
    { key: 'tds', label: 'app.tds.tds', cell: (d) => formatRupees(d.tds), align: 'right' },
    {
      key: 'rate',
      label: 'app.tds.rate',
      cell: (d) => (d.rate === null ? translate('app.tds.noRate') : `${d.rate}%`),
      align: 'right',
    },
    {
      key: 'creditedOn',
      label: 'app.tds.creditedOn',
      cell: (d) => format.date(d.creditedOn),
      hideBelow: 'md',
    },
    {
      key: 'deductedOn',
      label: 'app.tds.deductedOn',
      cell: (d) => format.date(d.deductedOn),
      hideBelow: 'md',
    },
    {
      key: 'certificate',
      label: 'app.tds.certificate',
      cell: (d) => (
        <PdfButton
          label={translate('app.tds.certificateOf', { name: titleCase(d.name) })}
          busy={busyFor(d.userId)}
          onClick={() =>
            download.mutate({
              path: 'tds/certificate',
              query: { userId: d.userId, ...period, format: 'pdf', lang },
              name: `tds-certificate-${period.fy}-${period.quarter}-${d.userId}.pdf`,
            })
          }
        />
      ),
    },
  ];
  // On a phone each deductee is a card (its amounts and certificate on screen), the totals the last one.
  return (
    <FittedTable
      label={translate('app.tds.deductees')}
      columns={columns}
      // A deductee has a row for each rate and PAN its tax was withheld at.
      rows={report.deductees}
      rowKey={(d) => `${d.userId} ${d.rate} ${d.panId}`}
      footer={{
        label: 'app.tds.total',
        cells: { credited: formatRupees(report.totals.credited), tds: formatRupees(report.totals.tds) },
      }}
    />
  );
};

/** Record Deposit (ADMIN): a challan paid against TDS payable (tds/deposit), with the server's own rules. */
const DepositDialog = ({
  open,
  onClose,
  payable,
}: {
  open: boolean;
  onClose: () => void;
  payable?: number;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<AppDataProvider>();
  const deposit = useMutation({
    mutationFn: (values: Values) =>
      dataProvider.recordTdsDeposit({
        bsrCode: String(values.bsrCode).trim(),
        challanSerial: String(values.challanSerial).trim(),
        date: String(values.date),
        amount: String(values.amount).trim(),
      }),
  });
  const submit = async (values: Values) => {
    try {
      const { message } = await deposit.mutateAsync(values);
      notify(message ?? TDS_MSG.depositRecorded, {
        type: message === TDS_MSG.depositReplayed ? 'info' : 'success',
      });
      await queryClient.invalidateQueries({ queryKey: ['tds'] });
      onClose();
    } catch (error) {
      // The dialog stays open to correct or cancel.
      notify((error as Error).message, { type: 'error' });
    }
  };
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="app.tds.depositTitle"
      submitLabel="app.tds.recordDeposit"
      validate={validateDeposit}
      defaultValues={{ date: indiaDay() }}
      onSubmit={submit}
    >
      <DialogContentText sx={{ mb: 1 }}>
        {translate('app.tds.depositText')}
        {payable !== undefined && ` ${translate('app.tds.payableNow', { amount: formatRupees(payable) })}`}
      </DialogContentText>
      <DigitsInput source="bsrCode" label="app.tds.bsrCode" />
      <DigitsInput source="challanSerial" label="app.tds.challanSerial" />
      <DateInput source="date" label="app.tds.date" validate={requiredMark} />
      <RupeesInput label="app.tds.amountRupees" />
    </FormDialog>
  );
};

type Deposit = Awaited<ReturnType<AppDataProvider['getTdsDeposits']>>['deposits'][number];

const depositColumns = (format: ReturnType<typeof useFormat>): FittedColumn<Deposit>[] => [
  { key: 'date', label: 'app.tds.date', cell: (d) => format.date(d.date) },
  { key: 'bsrCode', label: 'app.tds.bsrCode', cell: (d) => d.bsrCode },
  { key: 'challanSerial', label: 'app.tds.challanSerial', cell: (d) => d.challanSerial },
  { key: 'amount', label: 'app.tds.amount', cell: (d) => formatRupees(d.amount), align: 'right' },
];

/** The challans dated in the quarter, and TDS payable now; Record Deposit for an admin. */
const Deposits = ({ period }: { period: TdsPeriod }) => {
  const translate = useTranslate();
  const format = useFormat();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { canAccess: canDeposit } = useCanAccess({ resource: 'tds', action: 'edit' });
  const [open, setOpen] = useState(false);
  const deposits = useQuery({
    queryKey: ['tds', 'deposits', period.fy, period.quarter],
    queryFn: () => dataProvider.getTdsDeposits(period),
    retry: false,
  });
  const body = (
    <QueryView query={deposits} loading="app.tds.depositsLoading" failed="app.tds.depositsFailed">
      {(data) => (
        <Stack spacing={1.5}>
          <Typography>
            {translate('app.tds.payableNow', { amount: formatRupees(data.tdsPayable) })}
          </Typography>
          {data.deposits.length === 0 ? (
            <Typography role="status" color="text.secondary">
              {translate('app.tds.noDeposits')}
            </Typography>
          ) : (
            <FittedTable
              label={translate('app.tds.deposits')}
              columns={depositColumns(format)}
              rows={data.deposits}
              rowKey={(d) => d._id}
              footer={{ label: 'app.tds.total', cells: { amount: formatRupees(data.total) } }}
            />
          )}
        </Stack>
      )}
    </QueryView>
  );
  return (
    <SectionCard
      title="app.tds.deposits"
      action={
        canDeposit && (
          <Button size="small" variant="outlined" startIcon={<PostAddIcon />} onClick={() => setOpen(true)}>
            {translate('app.tds.recordDeposit')}
          </Button>
        )
      }
    >
      {body}
      {canDeposit && (
        <DepositDialog open={open} onClose={() => setOpen(false)} payable={deposits.data?.tdsPayable} />
      )}
    </SectionCard>
  );
};

/**
 * TDS (section 194H, issue 43): pick a financial year and quarter; the quarter's deductees with a CSV of Form 26Q's
 * deductee columns and each one's certificate (Form 16A's data) as a PDF; the challans deposited in the quarter.
 */
export const TdsPage = () => {
  const translate = useTranslate();
  const format = useFormat();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [period, setPeriod] = useState<TdsPeriod>(() => periodOfDay(indiaDay()));
  const report = useQuery({
    queryKey: ['tds', 'fetch', period.fy, period.quarter],
    queryFn: () => dataProvider.getTdsQuarter(period),
    retry: false,
  });
  const download = useDownload();
  const data = report.data;
  return (
    <ReportPage texts="app.tds">
      <PeriodPicker period={period} onChange={setPeriod} />
      <SectionCard
        title="app.tds.deductees"
        action={
          <Button
            size="small"
            variant="outlined"
            disabled={!data || data.deductees.length === 0 || download.isPending}
            startIcon={download.isPending ? <CircularProgress size={16} /> : <DownloadIcon />}
            onClick={() =>
              download.mutate({
                path: 'tds/fetch',
                query: { ...period, format: 'csv' },
                name: `tds-${period.fy}-${period.quarter}.csv`,
              })
            }
          >
            {translate('app.tds.downloadCsv')}
          </Button>
        }
      >
        {data && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('app.tds.periodText', {
              from: format.date(data.from),
              to: format.date(data.to),
              section: data.section,
            })}
          </Typography>
        )}
        <QueryView query={report} loading="app.tds.loading" failed="app.tds.loadFailed">
          {(fetched) => <Deductees period={period} report={fetched} />}
        </QueryView>
      </SectionCard>
      <Deposits period={period} />
    </ReportPage>
  );
};
