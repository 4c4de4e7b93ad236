import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  FormControlLabel,
  LinearProgress,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Title, useDataProvider, useTranslate } from 'react-admin';
import {
  IMPORT_ERRORS_PAGE,
  IMPORT_KINDS,
  IMPORT_MAX_BYTES,
  IMPORT_POLL_MS,
  type ImportKind,
  type WireImportJob,
} from '../../../shared/schemas/imports';
import { DropZone } from '../../forms/DropZone';
import { useFormat } from '../../i18n/format';
import { localise } from '../../i18n/sharedMessages';
import { saveFile } from '../../layout/saveFile';
import { useNotifyError } from '../../layout/useNotifyError';
import { Pager } from '../../lists/ListPagination';
import type { AppDataProvider } from '../../providers/dataProvider';

const COUNT_KEYS = ['read', 'created', 'updated', 'unchanged', 'conflicts', 'refused'] as const;

/**
 * Bulk import from CSV (issues 45 and 51), for admins: pick the kind, download its template, drop the file, check
 * it (a dry run: the row errors, a page at a time, downloadable as CSV), then import it with a progress bar fed by
 * the job's counts, and a summary at the end. The server judges every row and keeps the first 1,000 errors; this
 * screen only shows what it says.
 */
export const ImportPage = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [kind, setKind] = useState<ImportKind>('retailers');
  const [file, setFile] = useState<File | null>(null);
  const [update, setUpdate] = useState(false);
  const [rejection, setRejection] = useState<string | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [errorsPage, setErrorsPage] = useState(1);
  const statusId = useId();

  const reset = () => {
    setJobId(null);
    setErrorsPage(1);
    start.reset();
  };
  const start = useMutation({
    mutationFn: (dryRun: boolean) => {
      const form = new FormData();
      form.append('dryRun', String(dryRun));
      form.append('mode', update ? 'update' : 'create');
      form.append('file', file!, file!.name);
      return dataProvider.startImport(kind, form);
    },
    onSuccess: ({ id }) => {
      setErrorsPage(1);
      setJobId(id);
    },
  });
  const job = useQuery({
    queryKey: ['import', jobId, errorsPage],
    queryFn: () => dataProvider.getImport(jobId!, { page: errorsPage, perPage: IMPORT_ERRORS_PAGE }),
    enabled: !!jobId,
    retry: false,
    // The page shown stays while the next one loads.
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.status === 'RUNNING' ? IMPORT_POLL_MS : false),
  });
  const template = useMutation({
    mutationFn: () => dataProvider.getImportTemplate(kind),
    onSuccess: (blob) => saveFile(blob, `${kind}-template.csv`),
  });
  useNotifyError(start.error);
  useNotifyError(job.error);
  useNotifyError(template.error);

  const data = job.data?._id === jobId ? job.data : undefined;
  const running = start.isPending || data?.status === 'RUNNING' || (!!jobId && !data);
  const checked = data?.dryRun && data.status === 'DONE';
  const percent = data && data.total > 0 ? Math.round((data.counts.read / data.total) * 100) : 0;

  return (
    <Box sx={{ p: { xs: 1, md: 2 }, maxWidth: 1100 }}>
      <Title title={translate('app.imports.title')} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {translate('app.imports.title')}
      </Typography>
      <Card variant="outlined">
        <CardContent sx={{ display: 'grid', gap: 2 }}>
          <Typography>{translate('app.imports.intro')}</Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
            <TextField
              select
              label={translate('app.imports.kind')}
              value={kind}
              onChange={(event) => {
                setKind(event.target.value as ImportKind);
                reset();
              }}
              sx={{ minWidth: 240, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}
              size="small"
            >
              {IMPORT_KINDS.map((k) => (
                <MenuItem key={k} value={k}>
                  {translate(`app.imports.kinds.${k}`)}
                </MenuItem>
              ))}
            </TextField>
            <Button variant="outlined" onClick={() => template.mutate()} disabled={template.isPending}>
              {translate('app.imports.template')}
            </Button>
          </Box>
          <DropZone
            heading={translate('app.imports.fileInput')}
            headingLevel="h2"
            name="file"
            inputLabel={translate('app.imports.fileInput')}
            text={file ? translate('app.imports.chosen', { name: file.name }) : translate('app.imports.drop')}
            hint={translate(rejection ?? 'app.imports.hint')}
            hintIsError={!!rejection}
            invalid={!!rejection}
            options={{
              accept: { 'text/csv': ['.csv'], 'application/vnd.ms-excel': ['.csv'], 'text/plain': ['.csv'] },
              maxSize: IMPORT_MAX_BYTES,
              multiple: false,
              onDrop: (accepted, rejected) => {
                reset();
                if (rejected.length) {
                  const tooLarge = rejected[0].errors.some((e) => e.code === 'file-too-large');
                  setRejection(tooLarge ? 'app.imports.tooLarge' : 'app.imports.notCsv');
                  setFile(null);
                  return;
                }
                setRejection(null);
                setFile(accepted[0] ?? null);
              },
            }}
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={update}
                onChange={(event) => {
                  setUpdate(event.target.checked);
                  reset();
                }}
              />
            }
            label={translate('app.imports.update')}
          />
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
            <Button variant="outlined" disabled={!file || running} onClick={() => start.mutate(true)}>
              {translate('app.imports.check')}
            </Button>
            <Button
              variant="contained"
              disabled={!file || running || !checked}
              onClick={() => start.mutate(false)}
            >
              {translate('app.imports.import')}
            </Button>
          </Box>
        </CardContent>
      </Card>
      <Box id={statusId} aria-live="polite" sx={{ mt: 2, display: 'grid', gap: 2 }}>
        {running && (
          <Box>
            <Typography variant="body2">
              {translate(data && !data.dryRun ? 'app.imports.importing' : 'app.imports.checking')}{' '}
              {data ? translate('app.imports.rowsOf', { read: data.counts.read, total: data.total }) : ''}
            </Typography>
            <LinearProgress
              variant={data ? 'determinate' : 'indeterminate'}
              value={percent}
              aria-label={translate('app.imports.progress')}
            />
          </Box>
        )}
        {data && data.status !== 'RUNNING' && (
          <JobSummary job={data} errorsPage={errorsPage} onErrorsPage={setErrorsPage} />
        )}
      </Box>
    </Box>
  );
};

/** The finished job: what it did (or, for a check, would do), and its row errors, a page at a time. */
const JobSummary = ({
  job,
  errorsPage,
  onErrorsPage,
}: {
  job: WireImportJob;
  errorsPage: number;
  onErrorsPage: (page: number) => void;
}) => {
  const translate = useTranslate();
  const { count } = useFormat();
  const dataProvider = useDataProvider<AppDataProvider>();
  const failed = job.status === 'FAILED';
  const download = useMutation({
    // Every error the server kept, as its CSV.
    mutationFn: () => dataProvider.getFile(`import/fetch/${encodeURIComponent(job._id)}`, { format: 'csv' }),
    onSuccess: (blob) => saveFile(blob, `${job.kind}-errors.csv`),
  });
  useNotifyError(download.error);
  return (
    <Card variant="outlined" data-testid="import-summary">
      <CardContent sx={{ display: 'grid', gap: 2 }}>
        <Alert severity={failed ? 'error' : job.errorsTotal ? 'warning' : 'success'}>
          {failed
            ? localise(job.message ?? '', translate)
            : translate(job.dryRun ? 'app.imports.dryRunDone' : 'app.imports.importDone')}
          {!failed && job.errorsTotal > 0 && ` ${translate('app.imports.fixAndCheck')}`}
        </Alert>
        <Box
          component="dl"
          sx={{ m: 0, display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))' }}
        >
          {COUNT_KEYS.map((key) => (
            <Box key={key}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {translate(
                  key === 'created' && job.dryRun
                    ? 'app.imports.counts.wouldCreate'
                    : `app.imports.counts.${key}`,
                )}
              </Typography>
              <Typography component="dd" variant="h6" sx={{ m: 0 }} data-testid={`import-count-${key}`}>
                {job.counts[key]}
              </Typography>
            </Box>
          ))}
        </Box>
        {job.errorsTotal > 0 ? (
          <>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
              <Typography component="h2" variant="subtitle1" sx={{ flex: 1 }}>
                {translate('app.imports.errorsTitle')}
              </Typography>
              <Button variant="outlined" onClick={() => download.mutate()} disabled={download.isPending}>
                {translate('app.imports.downloadErrors')}
              </Button>
            </Box>
            <Typography variant="body2" data-testid="import-errors-total">
              {translate('app.imports.errorsTotal', {
                smart_count: job.errorsTotal,
                total: count(job.errorsTotal),
              })}
              {job.errorsTotal > job.errorsKept &&
                ` ${translate('app.imports.errorsKept', { kept: count(job.errorsKept) })}`}
            </Typography>
            {/* On a phone a long message can make the table scroll sideways: its region is reached by Tab, then
                scrolled by keys (as lists/FittedTable.tsx's). */}
            <TableContainer role="region" aria-label={translate('app.imports.errorsTitle')} tabIndex={0}>
              <Table size="small" aria-label={translate('app.imports.errorsTitle')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('app.imports.row')}</TableCell>
                    <TableCell>{translate('app.imports.column')}</TableCell>
                    <TableCell>{translate('app.imports.message')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {job.errors.map((e, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a row may have several errors in one column
                    <TableRow key={`${e.row}-${e.column}-${i}`}>
                      <TableCell>{e.row}</TableCell>
                      {/* The column by its label (the downloaded errors keep the file's headings). */}
                      <TableCell sx={{ overflowWrap: 'anywhere' }}>
                        {e.column
                          ? translate(`app.imports.columns.${e.column}`, { _: e.column })
                          : translate('app.imports.wholeRow')}
                      </TableCell>
                      <TableCell sx={{ overflowWrap: 'anywhere' }}>
                        {localise(e.message, translate)}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            <Pager
              page={errorsPage}
              perPage={IMPORT_ERRORS_PAGE}
              total={job.errorsKept}
              rows={job.errors.length}
              onPage={onErrorsPage}
              label={translate('app.imports.errorsPages')}
            />
          </>
        ) : (
          !failed && <Typography variant="body2">{translate('app.imports.noErrors')}</Typography>
        )}
      </CardContent>
    </Card>
  );
};
