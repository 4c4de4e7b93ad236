import { Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import type { TdsQuartersResult, TdsQuarterTotals } from '../../../shared/schemas/tds';
import { useDocumentLanguage, useFormat } from '../../i18n/format';
import { PdfButton, useDownload } from '../../layout/download';
import { ReportPage } from '../../layout/ReportPage';
import { SectionCard } from '../../layout/SectionCard';
import { type FittedColumn, FittedTable } from '../../lists/FittedTable';
import { QueryView } from '../../lists/ListError';
import type { AppDataProvider } from '../../providers/dataProvider';

/** Every quarter with its figures and its certificate's PDF. */
const Quarters = ({ data }: { data: TdsQuartersResult }) => {
  const translate = useTranslate();
  const format = useFormat();
  const lang = useDocumentLanguage();
  const download = useDownload();
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
    download.isPending &&
    download.variables?.query.fy === q.fy &&
    download.variables.query.quarter === q.quarter;
  const columns: FittedColumn<TdsQuarterTotals>[] = [
    {
      key: 'quarter',
      label: 'app.tds.quarter',
      cell: (q) => (
        <>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {q.fy}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate(`app.tds.quarters.${q.quarter}`)}
          </Typography>
        </>
      ),
    },
    { key: 'credited', label: 'app.tds.credited', align: 'right', cell: (q) => format.rupees(q.credited) },
    { key: 'tds', label: 'app.tds.tds', align: 'right', cell: (q) => format.rupees(q.tds) },
    {
      key: 'certificate',
      label: 'app.tds.certificate',
      cell: (q) => (
        <PdfButton
          label={label(q)}
          busy={busyFor(q)}
          onClick={() =>
            download.mutate({
              path: 'tds/certificate',
              query: { userId: data.user._id, fy: q.fy, quarter: q.quarter, format: 'pdf', lang },
              name: `tds-certificate-${q.fy}-${q.quarter}.pdf`,
            })
          }
        />
      ),
    },
  ];
  return (
    <FittedTable
      label={translate('app.myTds.quarters')}
      columns={columns}
      rows={data.quarters}
      rowKey={(q) => `${q.fy} ${q.quarter}`}
      cardsOnPhone={false}
    />
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
  const data = query.data;
  return (
    <ReportPage texts="app.myTds">
      <SectionCard title="app.myTds.quarters">
        {data && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('app.myTds.panNow', { pan: data.user.panId ?? translate('app.tds.noPan') })}
          </Typography>
        )}
        <QueryView query={query} loading="app.myTds.loading" failed="app.myTds.loadFailed">
          {(quarters) => <Quarters data={quarters} />}
        </QueryView>
      </SectionCard>
    </ReportPage>
  );
};
