import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import { Fragment, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/**
 * A titled card of a record or report screen (a sale, the books, TDS), named for screen readers by its title; its
 * action sits beside the title, or under it on a phone.
 */
export const SectionCard = ({
  title,
  children,
  action,
}: {
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) => {
  const translate = useTranslate();
  return (
    <Card component="section" aria-label={translate(title)}>
      <CardContent>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between', mb: 1 }}
        >
          <Typography component="h2" variant="h6">
            {translate(title)}
          </Typography>
          {action}
        </Stack>
        {children}
      </CardContent>
    </Card>
  );
};

/** Label and value pairs, as a definition list: side by side, or one under the other on a phone. */
export const Facts = ({ rows }: { rows: [string, ReactNode][] }) => {
  const translate = useTranslate();
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
        columnGap: 3,
        rowGap: 0.75,
        m: 0,
        '& dt': { color: 'text.secondary' },
        '& dd': { m: 0, wordBreak: 'break-word' },
      }}
    >
      {rows.map(([label, value]) => (
        <Fragment key={label}>
          <dt>{translate(label)}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </Box>
  );
};
