import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Skeleton,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { ChartsLocalizationProvider } from '@mui/x-charts/ChartsLocalizationProvider';
import { LineChart } from '@mui/x-charts/LineChart';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useCanAccess, useDataProvider, useTranslate } from 'react-admin';
import { monthOf } from '../../../shared/constants/statements';
import type { TrendDay } from '../../../shared/schemas/reports';
import { useFormat } from '../../i18n/format';
import { useNotifyError } from '../../layout/useNotifyError';
import { FittedTable } from '../../lists/FittedTable';
import type { AppDataProvider } from '../../providers/dataProvider';

/**
 * The dashboard's charts of the month (issue 55), each over the caller's network and each with a table of the same
 * figures (a toggle: for screen readers and the keyboard, and for anyone who would rather read the numbers). Drawn
 * with MUI X Charts, in the chosen language (its labels from the catalogue, its numbers and days through useFormat)
 * and the theme's colours. This module and MUI X Charts load only with the dashboard (Dashboard.tsx's lazy import),
 * so the panel's first load stays as it was. Its queries' keys start with 'report': whatever refreshes the
 * dashboard's reports refreshes the charts too.
 */

/** The days the commission chart asks: the last 30 and the 30 before them, its comparison line. */
const TREND_DAYS = 60;
const TOP = 10;
const HEIGHT = 260;

/** One chart with its title, and its table view a toggle away. */
const ChartCard = ({
  id,
  title,
  query,
  chart,
  table,
}: {
  id: string;
  title: string;
  query: UseQueryResult<unknown>;
  chart: () => ReactNode;
  table: () => ReactNode;
}) => {
  const translate = useTranslate();
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const titleId = `chart-${id}-title`;
  return (
    <Card component="section" aria-labelledby={titleId} data-testid={`chart-${id}`}>
      <CardContent>
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: 1,
          }}
        >
          <Typography id={titleId} component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {title}
          </Typography>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={view}
            onChange={(_, next) => next && setView(next)}
            aria-label={translate('app.charts.viewOf', { chart: title })}
          >
            <ToggleButton value="chart">{translate('app.charts.showChart')}</ToggleButton>
            <ToggleButton value="table">{translate('app.charts.showTable')}</ToggleButton>
          </ToggleButtonGroup>
        </Box>
        {query.isError ? (
          <Alert
            severity="error"
            sx={{ mt: 1 }}
            action={
              <Button color="inherit" size="small" onClick={() => query.refetch()}>
                {translate('app.dashboard.retry')}
              </Button>
            }
          >
            {translate('app.charts.loadError')}
          </Alert>
        ) : query.isPending ? (
          <Skeleton variant="rectangular" height={HEIGHT} aria-label={translate('ra.page.loading')} />
        ) : view === 'chart' ? (
          // The drawing is named by the card's title; its figures are the table view's.
          <Box component="figure" aria-labelledby={titleId} sx={{ m: 0, mt: 1 }}>
            {chart()}
          </Box>
        ) : (
          <Box sx={{ mt: 1 }}>{table()}</Box>
        )}
      </CardContent>
    </Card>
  );
};

/**
 * A name short enough for a bar's axis on a phone: its first words up to 12 characters, then '…' (the tooltip and
 * the table give it whole). Whole words only, so what shows is the name's own words (MUI X Charts would cut a label
 * too long for the axis anywhere, mid-word).
 */
const shortName = (name: string) => {
  if (name.length <= 12) return name;
  const words = name.split(' ');
  let short = words[0];
  for (const word of words.slice(1)) {
    if (short.length + 1 + word.length > 12) break;
    short = `${short} ${word}`;
  }
  return `${short}…`;
};

/** Sales neither confirmed nor failed (pending, or reversed). */
const otherOf = (d: { sales: number; confirmed: number; failed: number }) => d.sales - d.confirmed - d.failed;

const DashboardCharts = () => {
  const translate = useTranslate();
  const format = useFormat();
  const dataProvider = useDataProvider<AppDataProvider>();
  const month = monthOf(new Date());
  const { canAccess: seesTop } = useCanAccess({ resource: 'topRetailers', action: 'read' });
  const trends = useQuery({
    queryKey: ['report', 'trends', TREND_DAYS],
    queryFn: () => dataProvider.getTrends(TREND_DAYS),
    retry: false,
  });
  const products = useQuery({
    queryKey: ['report', 'products', month],
    queryFn: () => dataProvider.getProductSales(month),
    retry: false,
  });
  const top = useQuery({
    queryKey: ['report', 'top', month, TOP],
    queryFn: () => dataProvider.getTopRetailers(month, TOP),
    enabled: seesTop === true,
    retry: false,
  });
  useNotifyError(trends.error);
  useNotifyError(products.error);
  useNotifyError(top.error);

  const days = trends.data ?? [];
  const last = days.slice(-30);
  const before = days.slice(0, Math.max(days.length - 30, 0));
  const rupees = (value: number | null) => (value === null ? '' : format.rupees(value));
  const count = (value: number | null) => (value === null ? '' : format.count(value));
  const dayAxis = {
    scaleType: 'band' as const,
    data: last.map((d) => d.day),
    valueFormatter: (day: string, context: { location: string }) =>
      format.day(day, context.location === 'tick'),
  };
  const t = (key: string) => translate(`app.charts.${key}`);

  return (
    <ChartsLocalizationProvider localeText={{ noData: t('noData'), loading: t('loading') }}>
      <Typography component="h2" variant="h6" sx={{ mt: 3, mb: 1 }}>
        {t('title')}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' },
        }}
      >
        <ChartCard
          id="commission"
          title={t('commissionTitle')}
          query={trends}
          chart={() => (
            <LineChart
              height={HEIGHT}
              xAxis={[{ ...dayAxis, scaleType: 'point' }]}
              yAxis={[{ valueFormatter: (v: number) => format.rupees(v), width: 80 }]}
              series={[
                {
                  id: 'last',
                  label: t('last30'),
                  data: last.map((d) => d.commission),
                  valueFormatter: rupees,
                },
                {
                  id: 'before',
                  label: t('previous30'),
                  data: before.map((d) => d.commission),
                  valueFormatter: rupees,
                },
              ]}
            />
          )}
          table={() => (
            <FittedTable<[TrendDay, TrendDay | undefined]>
              label={t('commissionTitle')}
              cardsOnPhone={false}
              rows={last.map((d, n) => [d, before[n]])}
              rowKey={([d]) => d.day}
              columns={[
                { key: 'day', label: 'app.charts.day', cell: ([d]) => format.day(d.day) },
                {
                  key: 'commission',
                  label: 'app.charts.commission',
                  align: 'right',
                  cell: ([d]) => format.rupees(d.commission),
                },
                {
                  key: 'previousDay',
                  label: 'app.charts.previousDay',
                  cell: ([, p]) => (p ? format.day(p.day) : ''),
                },
                {
                  key: 'previousCommission',
                  label: 'app.charts.previousCommission',
                  align: 'right',
                  cell: ([, p]) => (p ? format.rupees(p.commission) : ''),
                },
              ]}
            />
          )}
        />
        <ChartCard
          id="sales"
          title={t('salesTitle')}
          query={trends}
          chart={() => (
            <BarChart
              height={HEIGHT}
              xAxis={[dayAxis]}
              yAxis={[{ valueFormatter: (v: number) => format.count(v), width: 40 }]}
              series={[
                {
                  id: 'confirmed',
                  label: t('confirmed'),
                  stack: 'sales',
                  data: last.map((d) => d.confirmed),
                  valueFormatter: count,
                },
                {
                  id: 'failed',
                  label: t('failed'),
                  stack: 'sales',
                  data: last.map((d) => d.failed),
                  valueFormatter: count,
                },
                {
                  id: 'other',
                  label: t('otherStatus'),
                  stack: 'sales',
                  data: last.map(otherOf),
                  valueFormatter: count,
                },
              ]}
            />
          )}
          table={() => (
            <FittedTable<TrendDay>
              label={t('salesTitle')}
              cardsOnPhone={false}
              rows={last}
              rowKey={(d) => d.day}
              columns={[
                { key: 'day', label: 'app.charts.day', cell: (d) => format.day(d.day) },
                {
                  key: 'sales',
                  label: 'app.charts.sales',
                  align: 'right',
                  cell: (d) => format.count(d.sales),
                },
                {
                  key: 'confirmed',
                  label: 'app.charts.confirmed',
                  align: 'right',
                  cell: (d) => format.count(d.confirmed),
                },
                {
                  key: 'failed',
                  label: 'app.charts.failed',
                  align: 'right',
                  cell: (d) => format.count(d.failed),
                },
              ]}
            />
          )}
        />
        <ChartCard
          id="products"
          title={t('productsTitle')}
          query={products}
          chart={() => (
            <BarChart
              height={HEIGHT}
              layout="horizontal"
              yAxis={[
                {
                  scaleType: 'band',
                  data: (products.data ?? []).map((p) => p.name),
                  width: 110,
                  valueFormatter: (name: string, context: { location: string }) =>
                    context.location === 'tick' ? shortName(name) : name,
                },
              ]}
              xAxis={[{ valueFormatter: (v: number) => format.count(v) }]}
              series={[
                {
                  id: 'confirmed',
                  label: t('confirmed'),
                  stack: 'sales',
                  data: (products.data ?? []).map((p) => p.confirmed),
                  valueFormatter: count,
                },
                {
                  id: 'failed',
                  label: t('failed'),
                  stack: 'sales',
                  data: (products.data ?? []).map((p) => p.failed),
                  valueFormatter: count,
                },
                {
                  id: 'other',
                  label: t('otherStatus'),
                  stack: 'sales',
                  data: (products.data ?? []).map(otherOf),
                  valueFormatter: count,
                },
              ]}
            />
          )}
          table={() => (
            <FittedTable
              label={t('productsTitle')}
              cardsOnPhone={false}
              rows={products.data ?? []}
              rowKey={(p) => p._id}
              columns={[
                { key: 'product', label: 'app.charts.product', cell: (p) => p.name },
                {
                  key: 'sales',
                  label: 'app.charts.sales',
                  align: 'right',
                  cell: (p) => format.count(p.sales),
                },
                {
                  key: 'confirmed',
                  label: 'app.charts.confirmed',
                  align: 'right',
                  cell: (p) => format.count(p.confirmed),
                },
                {
                  key: 'failed',
                  label: 'app.charts.failed',
                  align: 'right',
                  cell: (p) => format.count(p.failed),
                },
              ]}
            />
          )}
        />
        {seesTop && (
          <ChartCard
            id="top"
            title={t('topTitle')}
            query={top}
            chart={() => (
              <BarChart
                height={HEIGHT}
                layout="horizontal"
                hideLegend
                yAxis={[
                  {
                    scaleType: 'band',
                    data: (top.data ?? []).map((r) => r.name),
                    width: 110,
                    valueFormatter: (name: string, context: { location: string }) =>
                      context.location === 'tick' ? shortName(name) : name,
                  },
                ]}
                xAxis={[{ valueFormatter: (v: number) => format.rupees(v) }]}
                series={[
                  {
                    id: 'commission',
                    label: t('commission'),
                    data: (top.data ?? []).map((r) => r.commission),
                    valueFormatter: rupees,
                  },
                ]}
              />
            )}
            table={() => (
              <FittedTable
                label={t('topTitle')}
                cardsOnPhone={false}
                rows={(top.data ?? []).map((r, n) => ({ ...r, rank: n + 1 }))}
                rowKey={(r) => r._id}
                columns={[
                  {
                    key: 'rank',
                    label: 'app.charts.rank',
                    align: 'right',
                    cell: (r) => format.count(r.rank),
                  },
                  { key: 'retailer', label: 'app.charts.retailer', cell: (r) => r.name },
                  {
                    key: 'commission',
                    label: 'app.charts.commission',
                    align: 'right',
                    cell: (r) => format.rupees(r.commission),
                  },
                ]}
              />
            )}
          />
        )}
      </Box>
    </ChartsLocalizationProvider>
  );
};

export default DashboardCharts;
