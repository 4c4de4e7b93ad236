import { Box, Pagination, PaginationItem, Typography } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';
import { useFormat } from '../i18n/format';

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
 * Seed section 2: server paging with boundary links (first/last) and ellipses, after the range shown ('11-20 of 57').
 * The page size is fixed (10), so there is no rows-per-page selector. A page change updates the list parameters,
 * which refetches. The buttons' accessible names ('Go to next page', 'Page 3') are react-admin's catalogue texts, so
 * they are in the chosen language too.
 *
 * A capped total (`totalCountsCapped`: the server counted matching rows only up to 1,000) reads '1-10 of 1,000+';
 * the pager then offers one page past the current one while the current page is full, and no Last button, since
 * the last page is unknown.
 */
export const ListPagination = ({ window = 3, maxLinks }: ListPaginationProps) => {
  const { page, perPage, total, data, meta, setPage, isPending } = useListContext();
  if (isPending || !total) return null;
  return (
    <Pager
      page={page}
      perPage={perPage}
      total={total}
      rows={data?.length ?? 0}
      onPage={setPage}
      capped={meta?.totalCountsCapped === true}
      window={window}
      maxLinks={maxLinks}
    />
  );
};

export interface PagerProps extends ListPaginationProps {
  page: number;
  perPage: number;
  total: number;
  /** Rows on the current page. */
  rows: number;
  onPage: (page: number) => void;
  capped?: boolean;
  /** The pager's accessible name (default: the catalogue's 'Pagination'). */
  label?: string;
}

/** The pager itself, for a list's context (ListPagination) or for rows a screen pages itself (an import's errors). */
export const Pager = ({
  page,
  perPage,
  total,
  rows,
  onPage,
  capped = false,
  window = 3,
  maxLinks,
  label,
}: PagerProps) => {
  const translate = useTranslate();
  const { count: formatCount } = useFormat();
  const counted = Math.ceil(total / perPage);
  const full = rows >= perPage;
  const count = capped ? Math.max(counted, full ? page + 1 : page) : counted;
  const current = Math.min(page, count);
  const from = (current - 1) * perPage + 1;
  const to = from - 1 + rows;
  const range = translate('app.list.range', {
    from: formatCount(from),
    to: formatCount(Math.max(from, to)),
    total: capped ? `${formatCount(total)}+` : formatCount(total),
  });
  const shown = maxLinks ? new Set(pageWindow(current, count, maxLinks)) : undefined;
  return (
    <Box
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        justifyContent: 'flex-end',
        columnGap: 2,
        p: 1.5,
      }}
    >
      <Typography variant="body2" color="text.secondary" aria-live="polite">
        {range}
      </Typography>
      {count > 1 && (
        <Pagination
          aria-label={label ?? translate('app.list.pagination')}
          count={count}
          page={current}
          onChange={(_, next) => onPage(next)}
          siblingCount={shown ? count : Math.max(0, Math.floor((window - 1) / 2))}
          boundaryCount={capped ? 0 : 1}
          showFirstButton
          showLastButton={!capped}
          color="primary"
          shape="rounded"
          getItemAriaLabel={(type, item, selected) =>
            type === 'page'
              ? translate(selected ? 'ra.navigation.current_page' : 'ra.navigation.page', {
                  page: formatCount(item ?? 0),
                })
              : translate(`ra.navigation.${type}`)
          }
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
      )}
    </Box>
  );
};
