import { col } from '../../lists/columns';
import { ModalList } from '../../lists/ModalList';
import { StateDialog } from './StateDialog';

export const STATE_COLUMNS = [
  col.name('name', { sortable: true }),
  col.date('createdAt', { sortable: true }),
];

/** Seed section 2, location lists: Name, Created At; Add and Edit. */
export const StateList = () => (
  <ModalList
    resource="states"
    importKind="states"
    texts="app.states"
    columns={STATE_COLUMNS}
    dialog={StateDialog}
  />
);
