import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useState } from 'react';
import { type RaRecord, useCanAccess, useGetIdentity, useTranslate } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { COMMAND_STATUSES } from '../../../shared/schemas/approvals';
import { enumChoices } from '../../i18n/enums';
import { type Column, col } from '../../lists/columns';
import { FittedSelectInput } from '../../lists/FittedSelectInput';
import { ResourceList } from '../../lists/ResourceList';
import { type RowAction, RowActionButton } from '../../lists/RowActions';
import { AdjustButton, PayoutButton } from '../transactions/LedgerActions';
import { ApproveCommandDialog, RejectCommandDialog, useCommandWords } from './DecisionDialogs';
import { SoleAdminNotice, useSoleAdmin } from './SoleAdmin';

/** Whom a command is for: the wallet's user, the admin concerned, or the admin a creation would make. */
const subjectName = (r: RaRecord) => r.user?.name ?? r.details?.name;

/**
 * Kind, user, amount (an adjustment's is signed), the payout's reference or the adjustment's note (what a statement
 * shows), the maker's reason (staff only), maker, created, status, and the decision: who, when, and a rejection's
 * reason.
 */
export const APPROVAL_COLUMNS: Column[] = [
  col.enum('kind', 'commandKind'),
  col.name('user', {
    value: (r: RaRecord) => titleCase(subjectName(r)),
    csv: (r: RaRecord) => subjectName(r),
  }),
  col.money('amount'),
  col.text('reference', { value: (r: RaRecord) => r.reference ?? r.note ?? '' }),
  col.text('reason', { hideBelow: 'md' }),
  col.name('maker', {
    value: (r: RaRecord) => titleCase(r.maker?.name),
    csv: (r: RaRecord) => r.maker?.name,
  }),
  col.date('createdAt', { hideBelow: 'lg' }),
  col.enum('status', 'commandStatus'),
  col.name('checker', {
    value: (r: RaRecord) => titleCase(r.checker?.name),
    csv: (r: RaRecord) => r.checker?.name ?? '',
  }),
  col.date('decidedAt'),
  col.text('rejectionReason'),
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

/** An approved admin creation or password reset: its one-time password, for the checker's eyes only, once. */
const OneTimePasswordDialog = ({
  shown,
  onClose,
}: {
  shown: { name: string; password: string };
  onClose: () => void;
}) => {
  const translate = useTranslate();
  return (
    <Dialog open onClose={onClose} aria-labelledby="one-time-password-title">
      <DialogTitle id="one-time-password-title">{translate('app.approvals.oneTimeTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('app.approvals.oneTimeText', { name: shown.name })}</DialogContentText>
        <DialogContentText
          component="p"
          aria-label={translate('app.approvals.oneTimeTitle')}
          sx={{ mt: 2, fontFamily: 'monospace', fontSize: '1.25rem', color: 'text.primary' }}
        >
          {shown.password}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
};

/**
 * Approvals (maker-checker): money commands (payouts above the line or past the maker's daily line, employees'
 * payouts, adjustments) and power commands (a new admin, a promotion, another admin's password or second step reset)
 * waiting for a second admin, newest first. An admin sees every command, pending ones first shown, and may Approve
 * (it runs now) or Reject (with a reason) the ones it neither made nor is the subject of; an employee sees every one
 * it made with its decision (who, when, and a rejection's reason), and records payouts here (they always wait).
 * While the network has a single admin, the screen says so and names the console command that adds one.
 */
export const ApprovalList = () => {
  const translate = useTranslate();
  const words = useCommandWords();
  const soleAdmin = useSoleAdmin();
  const { identity } = useGetIdentity();
  const [open, setOpen] = useState<Open>(null);
  const [oneTime, setOneTime] = useState<{ name: string; password: string } | null>(null);
  const { canAccess: mayDecide, isPending: askingDecide } = useCanAccess({
    resource: 'approvals',
    action: 'edit',
  });
  const { canAccess: mayPay } = useCanAccess({ resource: 'payouts', action: 'create' });
  // The server refuses the maker and the one a command is for: the buttons are not offered to them.
  const decidable = (r: RaRecord) =>
    r.status === 'PENDING' &&
    identity?.id !== undefined &&
    r.maker?._id !== identity.id &&
    r.user?._id !== identity.id;
  const rowLabel = (r: RaRecord, decision: 'approve' | 'reject') =>
    translate(`app.approvals.${decision}${r.amount === null ? 'Power' : ''}Row`, words(r));
  const decisions: RowAction[] = [
    {
      key: 'approve',
      render: (r) =>
        decidable(r) ? (
          <RowActionButton
            label="app.approvals.approve"
            ariaLabel={rowLabel(r, 'approve')}
            icon={<CheckIcon fontSize="small" />}
            onClick={() => setOpen({ command: r, decision: 'approve' })}
          />
        ) : null,
    },
    {
      key: 'reject',
      render: (r) =>
        decidable(r) ? (
          <RowActionButton
            label="app.approvals.reject"
            ariaLabel={rowLabel(r, 'reject')}
            icon={<CloseIcon fontSize="small" />}
            onClick={() => setOpen({ command: r, decision: 'reject' })}
          />
        ) : null,
    },
  ];
  // The first view: what waits, for those who decide; a maker's every command with its decision, for the others.
  if (askingDecide) return null;
  return (
    <>
      <ResourceList
        resource="approvals"
        texts="app.approvals"
        columns={APPROVAL_COLUMNS}
        filters={approvalFilters}
        filterDefaultValues={mayDecide ? { status: 'PENDING' } : {}}
        header={soleAdmin ? <SoleAdminNotice /> : undefined}
        toolbar={
          <>
            {mayPay && <PayoutButton />}
            <AdjustButton />
          </>
        }
        rowActions={mayDecide ? decisions : []}
      />
      {open?.decision === 'approve' && (
        <ApproveCommandDialog
          command={open.command}
          open
          onClose={() => setOpen(null)}
          onApproved={({ oneTimePassword }) => {
            if (oneTimePassword)
              setOneTime({ name: titleCase(subjectName(open.command)), password: oneTimePassword });
          }}
        />
      )}
      {open?.decision === 'reject' && (
        <RejectCommandDialog command={open.command} open onClose={() => setOpen(null)} />
      )}
      {oneTime && <OneTimePasswordDialog shown={oneTime} onClose={() => setOneTime(null)} />}
    </>
  );
};
