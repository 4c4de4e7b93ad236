import { Chip } from '@mui/material';
import type { LeadStatus } from '../../../shared/schemas/leads';

const STATUS_COLOR: Record<LeadStatus, 'info' | 'success' | 'error'> = {
  NEW: 'info',
  APPROVED: 'success',
  REJECTED: 'error',
};

/** A lead's status as the server names it: NEW, APPROVED, REJECTED. */
export const LeadStatusChip = ({ status }: { status?: string }) =>
  status ? (
    <Chip
      size="small"
      label={status}
      color={STATUS_COLOR[status as LeadStatus] ?? 'default'}
      variant={status === 'NEW' ? 'outlined' : 'filled'}
    />
  ) : null;
