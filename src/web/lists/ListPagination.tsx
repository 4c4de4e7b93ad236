import { Box, Pagination } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';

export interface ListPaginationProps {
  /** How many page links show around the current page (seed section 9: the tehsil list shows 5). */
  window?: number;
}

/**
 * Seed section 2: server paging with boundary links (first/last) and ellipses. The page size is fixed (10), so
 * there is no rows-per-page selector. A page change updates the list parameters, which refetches.
 */
export const ListPagination = ({ window = 3 }: ListPaginationProps) => {
  const { page, perPage, total, setPage, isPending } = useListContext();
  const translate = useTranslate();
  if (isPending || !total) return null;
  const count = Math.ceil(total / perPage);
  if (count <= 1) return null;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 1.5 }}>
      <Pagination
        aria-label={translate('app.list.pagination')}
        count={count}
        page={Math.min(page, count)}
        onChange={(_, next) => setPage(next)}
        siblingCount={Math.max(0, Math.floor((window - 1) / 2))}
        boundaryCount={1}
        showFirstButton
        showLastButton
        color="primary"
        shape="rounded"
      />
    </Box>
  );
};
