import { type SaleStatus, SaleStatus as Status } from '../../../shared/enums';
import { CodeChip } from '../../lists/CodeChip';

const STATUS_COLOR: Record<SaleStatus, 'default' | 'success' | 'error' | 'warning'> = {
  [Status.PENDING]: 'warning',
  [Status.CONFIRMED]: 'success',
  [Status.FAILED]: 'error',
  [Status.REVERSED]: 'default',
};

/** A sale's status as the server names it: PENDING until the partner answers, then CONFIRMED or FAILED. */
export const SaleStatusChip = ({ status }: { status?: string }) => (
  <CodeChip
    group="saleStatus"
    code={status}
    color={STATUS_COLOR[status as SaleStatus] ?? 'default'}
    variant={status === Status.PENDING ? 'outlined' : 'filled'}
  />
);
