import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { useState } from 'react';
import { type RaRecord, useCanAccess, useTranslate } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { COMMAND_STATUSES } from '../../../shared/schemas/approvals';
import { enumChoices } from '../../i18n/enums';
import { type Column, col } from '../../lists/columns';
import { FittedSelectInput } from '../../lists/FittedSelectInput';
import { ResourceList } from '../../lists/ResourceList';
import { type RowAction, RowActionButton } from '../../lists/RowActions';
import { AdjustButton, PayoutButton } from '../transactions/LedgerActions';
import { ApproveCommandDialog, RejectCommandDialog, useCommandWords } from './DecisionDialogs';

/** Kind, user, amount (an adjustment's is signed), maker, created, reason or reference, status. */
export const APPROVAL_COLUMNS: Column[] = [
  col.enum('kind', 'postingKind'),
  col.name('user', { value: (r: RaRecord) => titleCase(r.user?.name), csv: (r: RaRecord) => r.user?.name }),
  col.money('amount'),
  col.name('maker', {
    value: (r: RaRecord) => titleCase(r.maker?.name),
    csv: (r: RaRecord) => r.maker?.name,
  }),
  col.dateTime('createdAt'),
  col.text('reason', {
    value: (r: RaRecord) => String(r.reason ?? r.reference ?? ''),
    hideBelow: 'md',
  }),
  col.enum('status', 'commandStatus'),
];

const approvalFilters = [
  <FittedSelectInput
    key="status"
    source="status"
    choices={enumChoices('commandStatus', COMMAND_STATUSES)}
    emptyText="app.approvals.allStatuses"
    alwaysOn
  />,
];

type Open = { command: RaRecord; decision: 'approve' | 'reject' } | null;

/**
 * Approvals (maker-checker): payouts above the line, employees' payouts and adjustments waiting for a second
 * admin, newest first, pending ones first shown. An admin sees every command and may Approve (it runs now) or
 * Reject (with a reason); an employee sees the ones it made and records payouts here (they always wait). The
 * server refuses the maker, and an approval the wallet no longer covers, with a message.
 */
export const ApprovalList = () => {
  const translate = useTranslate();
  const words = useCommandWords();
  const [open, setOpen] = useState<Open>(null);
  const { canAccess: mayDecide } = useCanAccess({ resource: 'approvals', action: 'edit' });
  const { canAccess: mayPay } = useCanAccess({ resource: 'payouts', action: 'create' });
  const pending = (r: RaRecord) => r.status === 'PENDING';
  const decisions: RowAction[] = [
    {
      key: 'approve',
      render: (r) =>
        pending(r) ? (
          <RowActionButton
            label="app.approvals.approve"
            ariaLabel={translate('app.approvals.approveRow', words(r))}
            icon={<CheckIcon fontSize="small" />}
            onClick={() => setOpen({ command: r, decision: 'approve' })}
          />
        ) : null,
    },
    {
      key: 'reject',
      render: (r) =>
        pending(r) ? (
          <RowActionButton
            label="app.approvals.reject"
            ariaLabel={translate('app.approvals.rejectRow', words(r))}
            icon={<CloseIcon fontSize="small" />}
            onClick={() => setOpen({ command: r, decision: 'reject' })}
          />
        ) : null,
    },
  ];
  return (
    <>
      <ResourceList
        resource="approvals"
        texts="app.approvals"
        columns={APPROVAL_COLUMNS}
        filters={approvalFilters}
        filterDefaultValues={{ status: 'PENDING' }}
        toolbar={
          <>
            {mayPay && <PayoutButton />}
            <AdjustButton />
          </>
        }
        rowActions={mayDecide ? decisions : []}
      />
      {open?.decision === 'approve' && (
        <ApproveCommandDialog command={open.command} open onClose={() => setOpen(null)} />
      )}
      {open?.decision === 'reject' && (
        <RejectCommandDialog command={open.command} open onClose={() => setOpen(null)} />
      )}
    </>
  );
};
