import { Card, CardContent, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/** Two columns from the small-tablet width up, one on a phone. */
export const grid = {
  display: 'grid',
  columnGap: 2,
  gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
} as const;
export const numeric = { htmlInput: { inputMode: 'numeric' as const } };

/** One section of the application: a titled card, a landmark a screen reader can jump to. */
export const Section = ({ title, children }: { title: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Card component="section" aria-label={translate(title)} variant="outlined">
      <CardContent>
        <Typography component="h2" variant="h6" sx={{ mb: 1.5 }}>
          {translate(title)}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
};
