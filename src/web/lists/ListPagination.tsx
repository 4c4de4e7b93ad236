import { Box, Pagination, PaginationItem } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';

export interface ListPaginationProps {
  /** How many page links show around the current page (seed section 9: the tehsil list shows 5). */
  window?: number;
  /**
   * At most this many numbered page links in all, first and last page included (seed section 9: the transaction
   * list shows at most 5); the first/last buttons and ellipses stand for the rest.
   */
  maxLinks?: number;
}

/** The numbered pages to show: a run of at most `max` pages around `page`, kept inside 1..count. */
export function pageWindow(page: number, count: number, max: number): number[] {
  const size = Math.min(max, count);
  const start = Math.max(1, Math.min(page - Math.floor((size - 1) / 2), count - size + 1));
  return Array.from({ length: size }, (_, i) => start + i);
}

/**
 * Seed section 2: server paging with boundary links (first/last) and ellipses. The page size is fixed (10), so
 * there is no rows-per-page selector. A page change updates the list parameters, which refetches.
 */
export const ListPagination = ({ window = 3, maxLinks }: ListPaginationProps) => {
  const { page, perPage, total, setPage, isPending } = useListContext();
  const translate = useTranslate();
  if (isPending || !total) return null;
  const count = Math.ceil(total / perPage);
  if (count <= 1) return null;
  const current = Math.min(page, count);
  const shown = maxLinks ? new Set(pageWindow(current, count, maxLinks)) : undefined;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 1.5 }}>
      <Pagination
        aria-label={translate('app.list.pagination')}
        count={count}
        page={current}
        onChange={(_, next) => setPage(next)}
        siblingCount={shown ? count : Math.max(0, Math.floor((window - 1) / 2))}
        boundaryCount={1}
        showFirstButton
        showLastButton
        color="primary"
        shape="rounded"
        renderItem={(item) => {
          if (!shown || item.type !== 'page' || item.page === null) return <PaginationItem {...item} />;
          // Pages outside the window: one ellipsis on each side stands for them.
          if (shown.has(item.page)) return <PaginationItem {...item} />;
          const first = Math.min(...shown);
          const last = Math.max(...shown);
          if (item.page === first - 1 || item.page === last + 1)
            return <PaginationItem type={item.page < first ? 'start-ellipsis' : 'end-ellipsis'} />;
          return null;
        }}
      />
    </Box>
  );
};
