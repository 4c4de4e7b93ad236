import { Chip } from '@mui/material';
import { type SaleStatus, SaleStatus as Status } from '../../../shared/enums';

const STATUS_COLOR: Record<SaleStatus, 'default' | 'success' | 'error' | 'warning'> = {
  [Status.PENDING]: 'warning',
  [Status.CONFIRMED]: 'success',
  [Status.FAILED]: 'error',
  [Status.REVERSED]: 'default',
};

/** A sale's status as the server names it: PENDING until the partner answers, then CONFIRMED or FAILED. */
export const SaleStatusChip = ({ status }: { status?: string }) =>
  status ? (
    <Chip
      size="small"
      label={status}
      color={STATUS_COLOR[status as SaleStatus] ?? 'default'}
      variant={status === Status.PENDING ? 'outlined' : 'filled'}
    />
  ) : null;
