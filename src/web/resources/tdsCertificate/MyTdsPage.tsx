import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import {
  Box,
  CircularProgress,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Title, useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { TdsQuartersResult, TdsQuarterTotals } from '../../../shared/schemas/tds';
import { useDocumentLanguage, useFormat } from '../../i18n/format';
import { SectionCard } from '../../layout/SectionCard';
import { saveFile } from '../../layout/saveFile';
import { useNotifyError } from '../../layout/useNotifyError';
import { LoadError } from '../../lists/ListError';
import type { AppDataProvider } from '../../providers/dataProvider';

/** Every quarter with its figures and its certificate's PDF. */
const Quarters = ({ data }: { data: TdsQuartersResult }) => {
  const translate = useTranslate();
  const format = useFormat();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const lang = useDocumentLanguage();
  const download = useMutation({
    mutationFn: async ({ fy, quarter }: TdsQuarterTotals) =>
      saveFile(
        await dataProvider.getFile('tds/certificate', {
          userId: data.user._id,
          fy,
          quarter,
          format: 'pdf',
          lang,
        }),
        `tds-certificate-${fy}-${quarter}.pdf`,
      ),
    onError: (error: Error) => notify(error.message, { type: 'error' }),
  });
  if (data.quarters.length === 0)
    return (
      <Typography role="status" color="text.secondary">
        {translate('app.myTds.empty')}
      </Typography>
    );
  const label = (q: TdsQuarterTotals) =>
    translate('app.myTds.downloadOf', {
      fy: q.fy,
      quarter: translate(`app.myTds.quarterNames.${q.quarter}`),
    });
  const busyFor = (q: TdsQuarterTotals) =>
    download.isPending && download.variables?.fy === q.fy && download.variables.quarter === q.quarter;
  return (
    // Scrolls inside its card rather than widening the page, should a phone be narrower than its columns.
    <TableContainer sx={{ overflowX: 'auto', contain: 'inline-size' }}>
      <Table size="small" aria-label={translate('app.myTds.quarters')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.tds.quarter')}</TableCell>
            <TableCell align="right">{translate('app.tds.credited')}</TableCell>
            <TableCell align="right">{translate('app.tds.tds')}</TableCell>
            <TableCell>{translate('app.tds.certificate')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.quarters.map((q) => (
            <TableRow key={`${q.fy} ${q.quarter}`}>
              <TableCell>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {q.fy}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {translate(`app.tds.quarters.${q.quarter}`)}
                </Typography>
              </TableCell>
              <TableCell align="right">{format.rupees(q.credited)}</TableCell>
              <TableCell align="right">{format.rupees(q.tds)}</TableCell>
              <TableCell>
                <Tooltip title={label(q)}>
                  <span>
                    <IconButton
                      aria-label={label(q)}
                      disabled={busyFor(q)}
                      onClick={() => download.mutate(q)}
                    >
                      {busyFor(q) ? <CircularProgress size={20} /> : <PictureAsPdfIcon />}
                    </IconButton>
                  </span>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
};

/**
 * My TDS (issue 51): a master distributor's, distributor's or retailer's own tax withheld (section 194H), every
 * quarter it had commission or tax in, newest first, each with its certificate (Form 16A's data) as a PDF. The
 * server answers only the caller's own (tds/quarters, from the session).
 */
export const MyTdsPage = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const query = useQuery({
    queryKey: ['tds', 'quarters'],
    queryFn: () => dataProvider.getTdsQuarters(),
    retry: false,
  });
  useNotifyError(query.error);
  const data = query.data;
  let body: ReactNode;
  if (query.isPending) body = <CircularProgress size={24} aria-label={translate('app.myTds.loading')} />;
  else if (query.isError || !data)
    body = <LoadError text="app.myTds.loadFailed" retry={() => query.refetch()} busy={query.isFetching} />;
  else body = <Quarters data={data} />;
  return (
    <Box sx={{ pt: 2, pb: 3, display: 'grid', gap: 2, gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <Title title={translate('app.myTds.title')} />
      <Box>
        <Typography variant="h5" component="h1">
          {translate('app.myTds.title')}
        </Typography>
        <Typography color="text.secondary">{translate('app.myTds.subtitle')}</Typography>
      </Box>
      <SectionCard title="app.myTds.quarters">
        {data && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('app.myTds.panNow', { pan: data.user.panId ?? translate('app.tds.noPan') })}
          </Typography>
        )}
        {body}
      </SectionCard>
    </Box>
  );
};
