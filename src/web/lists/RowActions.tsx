import { IconButton, Stack, Tooltip } from '@mui/material';
import { Fragment, type MouseEvent, type ReactNode } from 'react';
import { DataTable, type RaRecord, useTranslate } from 'react-admin';

/** One row action (Edit, Update Status, Select Product); `render` is null when the row does not offer it. */
export interface RowAction {
  key: string;
  render: (record: RaRecord) => ReactNode;
}

export interface RowActionButtonProps {
  /** i18n key of the short name (the tooltip). */
  label: string;
  /** The accessible name, naming the row ('Edit Asha Bhosale'). */
  ariaLabel: string;
  icon: ReactNode;
  /** The click (a menu anchors on its target). */
  onClick: (event: MouseEvent<HTMLElement>) => void;
}

/** A row action as an icon button with its name as a tooltip: compact, and it never wraps. */
export const RowActionButton = ({ label, ariaLabel, icon, onClick }: RowActionButtonProps) => {
  const translate = useTranslate();
  return (
    <Tooltip title={translate(label)} describeChild>
      <IconButton size="small" color="primary" aria-label={ariaLabel} onClick={onClick}>
        {icon}
      </IconButton>
    </Tooltip>
  );
};

/**
 * The row actions in one compact column, the table's last. Not pinned: a pinned column covered the columns that
 * scrolled under it (issue 53). The laptop's lists fit without a sideways scroll (their less important columns
 * collapse), a phone shows cards (ListCards), and between the two the table's region scrolls by keyboard.
 */
export const renderActionsColumn = (actions: RowAction[], label: string) =>
  actions.length === 0 ? null : (
    <DataTable.Col
      key="actions"
      label={label}
      disableSort
      render={(record: RaRecord) => (
        <Stack direction="row" spacing={0.25} sx={{ justifyContent: 'flex-end' }}>
          {actions.map((action) => (
            <Fragment key={action.key}>{action.render(record)}</Fragment>
          ))}
        </Stack>
      )}
      sx={{ width: '1%', whiteSpace: 'nowrap' }}
    />
  );
