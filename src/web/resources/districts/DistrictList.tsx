import { col } from '../../lists/columns';
import { ModalList } from '../../lists/ModalList';
import { DistrictDialog } from './DistrictDialog';

export const DISTRICT_COLUMNS = [
  col.name('state.name'),
  col.name('name', { sortable: true }),
  col.date('createdAt', { sortable: true }),
];

/** Seed section 2, location lists: State Name, Name, Created At; Add and Edit. */
export const DistrictList = () => (
  <ModalList
    resource="districts"
    importKind="districts"
    texts="app.districts"
    columns={DISTRICT_COLUMNS}
    dialog={DistrictDialog}
  />
);
