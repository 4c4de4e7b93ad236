import { Chip } from '@mui/material';
import { useGetList, useTranslate } from 'react-admin';

/**
 * The menu's count of commands waiting for approval: the list's total with status PENDING (one row fetched). It
 * reads again whenever react-admin refreshes, so an approval or a new pending payout updates it.
 */
export const PendingCount = () => {
  const translate = useTranslate();
  const { total } = useGetList('approvals', {
    filter: { status: 'PENDING' },
    pagination: { page: 1, perPage: 1 },
    sort: { field: 'createdAt', order: 'DESC' },
  });
  if (!total) return null;
  return (
    <Chip
      size="small"
      color="warning"
      label={total}
      aria-label={translate('app.approvals.pendingCount', { smart_count: total })}
      title={translate('app.approvals.pendingCount', { smart_count: total })}
      sx={{ ml: 1, height: 20 }}
    />
  );
};
