import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import { Button } from '@mui/material';
import { type ComponentType, useState } from 'react';
import { type RaRecord, ResourceContextProvider, useCanAccess, useTranslate } from 'react-admin';
import { titleCase } from '../../shared/format';
import type { ImportKind } from '../../shared/schemas/imports';
import type { Column } from './columns';
import { ImportFileExport } from './ImportFileExport';
import { ListPagination } from './ListPagination';
import type { RecordDialogProps } from './RecordDialog';
import { ResourceList } from './ResourceList';
import { type RowAction, RowActionButton } from './RowActions';

export interface ModalListProps {
  /** Resource name (a ROLE_TABLE key). */
  resource: string;
  /** i18n namespace with title, subtitle and add, e.g. 'app.states'. */
  texts: string;
  columns: Column[];
  /** The create/edit modal. */
  dialog: ComponentType<RecordDialogProps>;
  /** Row actions before Edit (Select Product, Update Status), already limited to the roles that may use them. */
  rowActions?: RowAction[];
  /** Page links around the current page. */
  paginationWindow?: number;
  /** Open the create modal on arrival (/location/tehsil/create); `onCreateClosed` runs when it closes. */
  openCreate?: boolean;
  onCreateClosed?: () => void;
  /** The import kind whose template the list's "Export for import" writes (the network's lists). */
  importKind?: ImportKind;
  /** Whether the toolbar has Add (for the roles that may create); the seed's Products has none. */
  addButton?: boolean;
}

interface ModalState {
  open: boolean;
  record?: RaRecord;
}

/**
 * The seed's common list with its create/edit modal (section 2): Add in the toolbar and Edit on every row, each for
 * the roles the role table lets create / edit.
 */
export const ModalList = ({
  resource,
  texts,
  columns,
  dialog: RecordDialog,
  rowActions = [],
  paginationWindow = 3,
  openCreate = false,
  onCreateClosed,
  importKind,
  addButton = true,
}: ModalListProps) => {
  const translate = useTranslate();
  const [modal, setModal] = useState<ModalState>({ open: openCreate });
  const { canAccess: canCreate } = useCanAccess({ resource, action: 'create' });
  const { canAccess: canEdit } = useCanAccess({ resource, action: 'edit' });

  const close = () => {
    const wasCreate = !modal.record;
    setModal((current) => ({ ...current, open: false }));
    if (wasCreate) onCreateClosed?.();
  };

  const edit: RowAction = {
    key: 'edit',
    render: (record) => (
      <RowActionButton
        label="app.list.edit"
        ariaLabel={translate('app.list.editRow', { name: titleCase(record.name) })}
        icon={<EditIcon fontSize="small" />}
        onClick={() => setModal({ open: true, record })}
      />
    ),
  };

  return (
    <>
      <ResourceList
        resource={resource}
        texts={texts}
        columns={columns}
        toolbar={
          <>
            {addButton && canCreate && (
              <Button variant="contained" startIcon={<AddIcon />} onClick={() => setModal({ open: true })}>
                {translate(`${texts}.add`)}
              </Button>
            )}
            {importKind && <ImportFileExport kind={importKind} />}
          </>
        }
        rowActions={canEdit ? [...rowActions, edit] : rowActions}
        pagination={<ListPagination window={paginationWindow} />}
      />
      <ResourceContextProvider value={resource}>
        <RecordDialog open={modal.open} record={modal.record} onClose={close} />
      </ResourceContextProvider>
    </>
  );
};
