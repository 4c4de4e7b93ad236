import { Box, type Theme, useMediaQuery } from '@mui/material';
import type { ReactElement, ReactNode } from 'react';
import {
  DataTable,
  type DataTableProps,
  List,
  ResourceContextProvider,
  SearchInput,
  type SortPayload,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { PAGE_SIZE } from '../../shared/rules';
import { PageHeading } from '../layout/ReportPage';
import { BookmarkedFilters } from './bookmarkedFilters';
import { type Column, renderColumns, useColumnsExporter } from './columns';
import { ListCards } from './ListCards';
import { ListError } from './ListError';
import { ListExportButton } from './ListExportButton';
import { ListPagination } from './ListPagination';
import { NoData } from './NoData';
import { type RowAction, renderActionsColumn } from './RowActions';

export interface ResourceListProps {
  /** Resource name (a ROLE_TABLE key). */
  resource: string;
  /** i18n namespace with title and subtitle, e.g. 'app.states'. */
  texts: string;
  columns: Column[];
  /** Filters (default: the search box, `q` sent as searchText). */
  filters?: ReactElement[];
  /** Buttons before Export in the toolbar. */
  toolbar?: ReactNode;
  /** The row actions, in the compact actions column. */
  rowActions?: RowAction[];
  pagination?: ReactElement;
  rowClick?: DataTableProps['rowClick'];
  /** Shown above the table, inside the list (e.g. the wallet's balances). */
  header?: ReactNode;
  sort?: SortPayload;
  /** The filters a first visit starts with (Approvals: the pending commands). */
  filterDefaultValues?: Record<string, unknown>;
  /** The filter fields whose value (from the address) the list's own checks refuse: see BookmarkedFilters. */
  refusedFilters?: (filters: Record<string, unknown>) => string[];
}

/** react-admin's `q` filter; the dataProvider sends it as `searchText`. */
const searchFilters = [<SearchInput key="q" source="q" alwaysOn />];

/**
 * A table wider than the screen scrolls inside its own region instead of widening the page, which would slide the
 * content under the fixed sidebar; `contain: inline-size` keeps the table's width out of the layout's fit-content
 * sizing. The region takes keyboard focus, so the arrow keys scroll it (axe: scrollable-region-focusable). Headers
 * do not break inside a word.
 */
const wideTable = {
  overflowX: 'auto',
  contain: 'inline-size',
  '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
  '& .RaDataTable-headerCell': { wordBreak: 'normal', overflowWrap: 'normal', hyphens: 'none' },
} as const;

/**
 * A list screen (seed section 2, common list behaviour): title and subtitle, the filters, the toolbar with Export,
 * the table from the declared columns with the row actions last (on a phone, a card per row: ListCards), 'No Data
 * Found' when it is empty, an error state with Retry when it could not be loaded, and 10 rows a page with server
 * paging.
 */
export const ResourceList = ({
  resource,
  texts,
  columns,
  filters = searchFilters,
  toolbar,
  rowActions = [],
  pagination = <ListPagination />,
  rowClick = false,
  header,
  sort = { field: 'createdAt', order: 'DESC' },
  filterDefaultValues,
  refusedFilters,
}: ResourceListProps) => {
  const translate = useTranslate();
  const exporter = useColumnsExporter(resource, columns);
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const title = translate(`${texts}.title`);
  return (
    <ResourceContextProvider value={resource}>
      <PageHeading texts={texts} sx={{ pt: 2 }} />
      <BookmarkedFilters refused={refusedFilters}>
        <List
          resource={resource}
          title={title}
          perPage={PAGE_SIZE}
          sort={sort}
          filters={filters}
          filterDefaultValues={filterDefaultValues}
          actions={
            // On a phone the buttons wrap onto a second line rather than widen the page (issue 44).
            <TopToolbar sx={{ flexWrap: 'wrap', justifyContent: 'flex-end' }}>
              {toolbar}
              <ListExportButton />
            </TopToolbar>
          }
          exporter={exporter}
          pagination={pagination}
          empty={false}
          error={<ListError />}
        >
          {header}
          {phone ? (
            <ListCards label={title} columns={columns} rowActions={rowActions} />
          ) : (
            // Focusable: a region that scrolls is reached by Tab, then scrolled with the arrow keys.
            <Box role="region" aria-label={title} tabIndex={0} sx={wideTable}>
              <DataTable rowClick={rowClick} bulkActionButtons={false} empty={<NoData />}>
                {renderColumns(columns)}
                {renderActionsColumn(rowActions, 'app.list.actions')}
              </DataTable>
            </Box>
          )}
        </List>
      </BookmarkedFilters>
    </ResourceContextProvider>
  );
};
