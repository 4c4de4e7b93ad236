import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

/** Seed section 2: the empty state of every list. */
export const NoData = () => {
  const translate = useTranslate();
  return (
    <Typography role="status" sx={{ p: 3, textAlign: 'center' }} color="text.secondary">
      {translate('app.list.noData')}
    </Typography>
  );
};
