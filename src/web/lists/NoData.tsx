import { Typography } from '@mui/material';
import { MSG } from '../../shared/messages';

/** Seed section 2: the empty state of every list. */
export const NoData = () => (
  <Typography role="status" sx={{ p: 3, textAlign: 'center' }} color="text.secondary">
    {MSG.noData}
  </Typography>
);
