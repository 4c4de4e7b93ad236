import type { LeadStatus } from '../../../shared/schemas/leads';
import { CodeChip } from '../../lists/CodeChip';

const STATUS_COLOR: Record<LeadStatus, 'info' | 'success' | 'error'> = {
  NEW: 'info',
  APPROVED: 'success',
  REJECTED: 'error',
};

/** A lead's status as the server names it: NEW, APPROVED, REJECTED. */
export const LeadStatusChip = ({ status }: { status?: string }) => (
  <CodeChip
    group="leadStatus"
    code={status}
    color={STATUS_COLOR[status as LeadStatus] ?? 'default'}
    variant={status === 'NEW' ? 'outlined' : 'filled'}
  />
);
