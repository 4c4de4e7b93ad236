import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import { Box, Button, Typography } from '@mui/material';
import { type ComponentType, type ReactNode, useState } from 'react';
import {
  DataTable,
  ExportButton,
  type Exporter,
  List,
  type RaRecord,
  ResourceContextProvider,
  SearchInput,
  TopToolbar,
  useCanAccess,
  useTranslate,
} from 'react-admin';
import { titleCase } from '../../shared/format';
import { PAGE_SIZE } from '../../shared/rules';
import { ListPagination } from './ListPagination';
import { NoData } from './NoData';
import type { RecordDialogProps } from './RecordDialog';

export interface ModalListProps {
  /** Resource name (a ROLE_TABLE key). */
  resource: string;
  /** i18n namespace with title, subtitle and add, e.g. 'app.states'. */
  texts: string;
  exporter: Exporter;
  /** The create/edit modal. */
  dialog: ComponentType<RecordDialogProps>;
  /** Page links around the current page. */
  paginationWindow?: number;
  /** Open the create modal on arrival (/location/tehsil/create); `onCreateClosed` runs when it closes. */
  openCreate?: boolean;
  onCreateClosed?: () => void;
  /** DataTable columns; an Edit column is appended for roles that may edit. */
  children: ReactNode;
}

interface ModalState {
  open: boolean;
  record?: RaRecord;
}

/** react-admin's `q` filter; the dataProvider sends it as `searchText`. */
const searchFilters = [<SearchInput key="q" source="q" alwaysOn />];

/**
 * A table wider than the screen (the user lists have up to 12 columns) scrolls inside its card instead of
 * widening the page, which would slide the content under the fixed sidebar and push Add off screen.
 * `contain: inline-size` keeps the table's width out of the layout's fit-content sizing.
 */
const wideTable = { '& .RaDataTable-tableWrapper': { overflowX: 'auto', contain: 'inline-size' } } as const;

/**
 * The seed's common list (section 2): title and subtitle, Add and Export buttons, a table with an Edit button per
 * row, 'No Data Found', 10 rows a page with server paging, a search box (`q`, sent as searchText) and the
 * create/edit modal. Add and Edit follow the role table (canAccess create / edit).
 */
export const ModalList = ({
  resource,
  texts,
  exporter,
  dialog: RecordDialog,
  paginationWindow = 3,
  openCreate = false,
  onCreateClosed,
  children,
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

  const actions = (
    <TopToolbar>
      {canCreate && (
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setModal({ open: true })}>
          {translate(`${texts}.add`)}
        </Button>
      )}
      <ExportButton />
    </TopToolbar>
  );

  return (
    <ResourceContextProvider value={resource}>
      <Box sx={{ pt: 2 }}>
        <Typography variant="h5" component="h1">
          {translate(`${texts}.title`)}
        </Typography>
        <Typography color="text.secondary">{translate(`${texts}.subtitle`)}</Typography>
      </Box>
      <List
        resource={resource}
        title={translate(`${texts}.title`)}
        perPage={PAGE_SIZE}
        sort={{ field: 'createdAt', order: 'DESC' }}
        filters={searchFilters}
        actions={actions}
        exporter={exporter}
        pagination={<ListPagination window={paginationWindow} />}
        empty={false}
      >
        <DataTable rowClick={false} bulkActionButtons={false} empty={<NoData />} sx={wideTable}>
          {children}
          {canEdit && (
            <DataTable.Col
              label={translate('app.list.edit')}
              disableSort
              render={(record: RaRecord) => (
                <Button
                  size="small"
                  startIcon={<EditIcon />}
                  aria-label={translate('app.list.editRow', { name: titleCase(record.name) })}
                  onClick={() => setModal({ open: true, record })}
                >
                  {translate('app.list.edit')}
                </Button>
              )}
            />
          )}
        </DataTable>
      </List>
      <RecordDialog open={modal.open} record={modal.record} onClose={close} />
    </ResourceContextProvider>
  );
};
