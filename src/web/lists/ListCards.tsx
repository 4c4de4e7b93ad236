import { Box, Stack } from '@mui/material';
import { Fragment } from 'react';
import { type RaRecord, useListContext, useResourceContext, useTranslate } from 'react-admin';
import { type Column, cellText } from './columns';
import { NoData } from './NoData';
import type { RowAction } from './RowActions';

/** The columns a phone shows: those no breakpoint hides (the rest are in the CSV and the record's modal). */
export const phoneColumns = (columns: Column[]) => columns.filter((column) => !column.hideBelow);

/**
 * A list's page on a phone (below the `sm` breakpoint, 360-599 px): each row a card of label-value pairs with its
 * row actions under them, so the columns its person came for (a retailer's balances) are on screen without a
 * sideways scroll, and nothing is pinned over anything. The list of cards keeps the list's name.
 */
export const ListCards = ({
  label,
  columns,
  rowActions,
}: {
  label: string;
  columns: Column[];
  rowActions: RowAction[];
}) => {
  const translate = useTranslate();
  const resource = useResourceContext();
  const { data, isPending } = useListContext();
  if (isPending && !data) return null;
  if (!data || data.length === 0) return <NoData />;
  const shown = phoneColumns(columns);
  return (
    <Box
      component="ul"
      aria-label={label}
      className="list-cards"
      sx={{ listStyle: 'none', px: 2, py: 0, m: 0 }}
    >
      {data.map((record: RaRecord) => (
        <Box
          component="li"
          key={record.id}
          sx={{ py: 1.5, borderBottom: 1, borderColor: 'divider', '&:last-of-type': { borderBottom: 0 } }}
        >
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 3fr)',
              columnGap: 2,
              rowGap: 0.5,
              m: 0,
              '& dt': { color: 'text.secondary' },
              '& dd': { m: 0, overflowWrap: 'anywhere' },
            }}
          >
            {shown.map((column) => (
              <Fragment key={column.source}>
                <dt>{translate(column.label ?? `resources.${resource}.fields.${column.source}`)}</dt>
                <dd>{cellText(column, record)}</dd>
              </Fragment>
            ))}
          </Box>
          {rowActions.length > 0 && (
            <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end', mt: 0.5 }}>
              {rowActions.map((action) => (
                <Fragment key={action.key}>{action.render(record)}</Fragment>
              ))}
            </Stack>
          )}
        </Box>
      ))}
    </Box>
  );
};
