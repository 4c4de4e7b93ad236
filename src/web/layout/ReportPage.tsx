import { Box, type SxProps, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Title, useTranslate } from 'react-admin';

/** A screen's heading: its title (the page's h1) and a line on what it holds, `<texts>.title` and `<texts>.subtitle`. */
export const PageHeading = ({ texts, sx }: { texts: string; sx?: SxProps }) => {
  const translate = useTranslate();
  return (
    <Box sx={sx}>
      <Typography variant="h5" component="h1">
        {translate(`${texts}.title`)}
      </Typography>
      <Typography color="text.secondary">{translate(`${texts}.subtitle`)}</Typography>
    </Box>
  );
};

/**
 * A report screen (books, TDS, my TDS): the app bar's title, the heading, then its parts one under another, in a grid
 * whose one column may shrink to nothing, so a wide table scrolls inside its card, never the page (390 px).
 */
export const ReportPage = ({ texts, children }: { texts: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Box sx={{ pt: 2, pb: 3, display: 'grid', gap: 2, gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <Title title={translate(`${texts}.title`)} />
      <PageHeading texts={texts} />
      {children}
    </Box>
  );
};
