import {
  Box,
  type Breakpoint,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableFooter,
  TableHead,
  TableRow,
  type Theme,
  useMediaQuery,
} from '@mui/material';
import { Fragment, type Key, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/** One column of a FittedTable: its header (a catalogue key) and how a row shows in it. */
export interface FittedColumn<R> {
  key: string;
  /** Catalogue key of the header (and of the label on a phone). */
  label: string;
  cell: (row: R) => ReactNode;
  align?: 'left' | 'right';
  /** Left out of the table below this breakpoint (a phone's cards still show it). */
  hideBelow?: Breakpoint;
}

/** A closing row (the totals): its label (a catalogue key) in the first column, and a value for some columns. */
export interface FittedFooter {
  label: string;
  cells: Record<string, ReactNode>;
}

export interface FittedTableProps<R> {
  /** The table's accessible name (already translated). */
  label: string;
  columns: FittedColumn<R>[];
  rows: R[];
  rowKey: (row: R) => Key;
  /** False: a table on a phone too, scrolling inside its card should the phone be narrower than its columns. */
  cardsOnPhone?: boolean;
  footer?: FittedFooter;
}

const visibility = (hideBelow?: Breakpoint) =>
  hideBelow ? { display: { xs: 'none', [hideBelow]: 'table-cell' } } : undefined;

/** The card's label-value pairs. */
const cardPairs = {
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 3fr)',
  columnGap: 2,
  rowGap: 0.5,
  m: 0,
  '& dt': { color: 'text.secondary' },
  '& dd': { m: 0, overflowWrap: 'anywhere' },
} as const;

const cardItem = {
  py: 1,
  borderBottom: 1,
  borderColor: 'divider',
  '&:last-of-type': { borderBottom: 0 },
} as const;

/**
 * A small table on a page (not a react-admin list) that fits a phone: from the `sm` breakpoint up, a table; below
 * it (a phone, 360-599 px), each row becomes a card of label-value pairs, so no column (an amount) is off-screen
 * and the page never scrolls sideways. The list of cards keeps the table's name; the footer (totals) is its last
 * card. A table kept on a phone (cardsOnPhone false) scrolls sideways in a region that takes keyboard focus (axe:
 * scrollable-region-focusable).
 */
export const FittedTable = <R,>({
  label,
  columns,
  rows,
  rowKey,
  cardsOnPhone = true,
  footer,
}: FittedTableProps<R>) => {
  const translate = useTranslate();
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  if (narrow && cardsOnPhone)
    return (
      <Box component="ul" aria-label={label} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {rows.map((row) => (
          <Box component="li" key={rowKey(row)} sx={cardItem}>
            <Box component="dl" sx={cardPairs}>
              {columns.map((column) => (
                <Fragment key={column.key}>
                  <dt>{translate(column.label)}</dt>
                  <dd>{column.cell(row)}</dd>
                </Fragment>
              ))}
            </Box>
          </Box>
        ))}
        {footer && (
          <Box component="li" sx={{ ...cardItem, fontWeight: 500 }}>
            <Box component="dl" sx={cardPairs}>
              {columns
                .filter((column) => column.key in footer.cells)
                .map((column) => (
                  <Fragment key={column.key}>
                    <dt>{`${translate(footer.label)}: ${translate(column.label)}`}</dt>
                    <dd>{footer.cells[column.key]}</dd>
                  </Fragment>
                ))}
            </Box>
          </Box>
        )}
      </Box>
    );
  return (
    <TableContainer
      // A table kept on a phone scrolls sideways there: its region is reached by Tab, then scrolled by keys.
      {...(cardsOnPhone
        ? {}
        : {
            role: 'region',
            'aria-label': label,
            tabIndex: 0,
            sx: { overflowX: 'auto', contain: 'inline-size' },
          })}
    >
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column.key} align={column.align} sx={visibility(column.hideBelow)}>
                {translate(column.label)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={rowKey(row)}>
              {columns.map((column) => (
                <TableCell key={column.key} align={column.align} sx={visibility(column.hideBelow)}>
                  {column.cell(row)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
        {footer && (
          <TableFooter>
            <TableRow>
              {columns.map((column, index) => (
                <TableCell key={column.key} align={column.align} sx={visibility(column.hideBelow)}>
                  {index === 0 ? translate(footer.label) : footer.cells[column.key]}
                </TableCell>
              ))}
            </TableRow>
          </TableFooter>
        )}
      </Table>
    </TableContainer>
  );
};
