import { Box, Link, Typography } from '@mui/material';
import { useCallback, useEffect } from 'react';
import { DateInput, type RaRecord, useListContext, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { Link as RouterLink } from 'react-router-dom';
import { dayOrderError, filterDay } from '../../../shared/dates';
import type { WirePostingTotals } from '../../../shared/wire';
import { useFormat } from '../../i18n/format';
import { messageKey } from '../../i18n/sharedMessages';
import { useRefusedFilter } from '../../lists/bookmarkedFilters';
import { col } from '../../lists/columns';
import { SALE_PAGE_PATH } from '../sales/paths';

/**
 * What the two postings lists share (issue 43, "the books on screen"): Transactions (every posting, ADMIN) and My
 * Wallet (the caller's own) show each posting's kind, its sale or payout reference and its date and time, filter by
 * a range of days, and show the money in and out of the whole filter, as the server computes them.
 */

/** The sale's page of a posting's sale. */
const salePagePath = (id: string) => SALE_PAGE_PATH.replace(':id', encodeURIComponent(id));

/** A sale's posting links to the sale's page (named by its reference); a payout shows the reference it was paid under. */
const PostingReference = ({ record }: { record: RaRecord }) => {
  const translate = useTranslate();
  if (!record.boughtProductId) return <>{record.reference ?? ''}</>;
  const code = record.saleReference ?? translate('app.transactions.sale');
  return (
    <Link
      component={RouterLink}
      to={salePagePath(String(record.boughtProductId))}
      aria-label={translate('app.transactions.openSale', { code })}
    >
      {code}
    </Link>
  );
};

/** The kind of a posting (commission, settlement, TDS, payout, reversal, adjustment), in the chosen language. */
export const kindColumn = col.enum('kind', 'postingKind');

/** The sale's reference (a link to its page) or the payout's; the CSV writes the reference as text. */
export const referenceColumn = col.text('reference', {
  value: (record: RaRecord) => record.saleReference ?? record.reference ?? '',
  render: (record: RaRecord) => <PostingReference record={record} />,
});

/** When the posting was written: date and time. */
export const dateTimeColumn = (extra: Parameters<typeof col.date>[1] = {}) => col.date('createdAt', extra);

/**
 * From or To, a day (both included), checked by the server's own rule (src/shared/dates.ts): a day that is not one,
 * or From later than To, is marked on the field and never sent. The order is checked again on this field when the
 * other one changes.
 */
const DayInput = ({ source }: { source: 'from' | 'to'; alwaysOn?: boolean }) => {
  const { trigger } = useFormContext();
  const other = useWatch({ name: source === 'from' ? 'to' : 'from' });
  useEffect(() => {
    if (other !== undefined) trigger(source);
  }, [other, source, trigger]);
  useRefusedFilter(source);
  const validate = useCallback((value: unknown, values: Record<string, unknown>) => {
    const error = dayError(value, values);
    return error === undefined ? undefined : messageKey(error);
  }, []);
  return <DateInput source={source} validate={validate} />;
};

/** A From or To day's refusal by the server's rule, given both: not a day, or From later than To. */
const dayError = (value: unknown, values: Record<string, unknown>) =>
  typeof value !== 'string' || value === ''
    ? undefined
    : (filterDay(value).error ?? dayOrderError(values.from, values.to));

/** The day range filters, From and To. */
export const dayFilters = [
  <DayInput key="from" source="from" alwaysOn />,
  <DayInput key="to" source="to" alwaysOn />,
];

/** The day filters an address brought that the fields refuse (ResourceList's `refusedFilters`). */
export const refusedDays = (filters: Record<string, unknown>) =>
  (['from', 'to'] as const).filter(
    (source) => filters[source] !== undefined && dayError(filters[source], filters) !== undefined,
  );

/**
 * The money into and out of the wallets of the list's whole filter (every page), as the server answers them beside
 * the page (`result.totals`, the list's `meta.totals`), with a line saying what they count: settlements move money
 * between a wallet's balances and count in neither.
 */
export const PostingTotals = () => {
  const translate = useTranslate();
  const format = useFormat();
  const { meta, isPending } = useListContext();
  const totals = (meta as { totals?: WirePostingTotals } | undefined)?.totals;
  const figure = (value: number | undefined) =>
    value !== undefined ? format.rupees(value) : isPending ? '…' : '—';
  return (
    <Box
      component="section"
      aria-label={translate('app.transactions.totals')}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 3, px: 2, py: 1 }}
    >
      <Typography color="text.secondary" sx={{ fontSize: 14 }}>
        {translate('app.transactions.totals')}
      </Typography>
      <Box component="dl" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3, m: 0 }}>
        {(['moneyIn', 'moneyOut'] as const).map((key) => (
          <Box key={key} sx={{ display: 'flex', gap: 1 }}>
            <Typography component="dt" color="text.secondary" sx={{ fontSize: 14 }}>
              {translate(`app.transactions.${key}`)}
            </Typography>
            <Typography component="dd" sx={{ m: 0, fontWeight: 600, fontSize: 14 }}>
              {figure(totals?.[key])}
            </Typography>
          </Box>
        ))}
      </Box>
      <Typography color="text.secondary" sx={{ fontSize: 12, flexBasis: '100%' }}>
        {translate('app.transactions.totalsNote')}
      </Typography>
    </Box>
  );
};
