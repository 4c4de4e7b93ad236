import { useNavigate } from 'react-router-dom';
import { col } from '../../lists/columns';
import { ModalList } from '../../lists/ModalList';
import { TEHSIL_LIST_PATH } from './paths';
import { TehsilDialog } from './TehsilDialog';

/** Seed section 9: the tehsil list shows a window of 5 page links. */
const TEHSIL_PAGE_WINDOW = 5;

export const TEHSIL_COLUMNS = [
  col.name('state.name'),
  col.name('district.name'),
  col.name('name', { sortable: true }),
  col.date('createdAt', { sortable: true }),
];

/**
 * Seed section 2, location lists: State Name, District Name, Tehsil Name, Created At. At
 * /location/tehsil/create the list opens with the create modal, and closing it returns to the list path.
 */
export const TehsilList = ({ openCreate = false }: { openCreate?: boolean }) => {
  const navigate = useNavigate();
  return (
    <ModalList
      resource="tehsils"
      importKind="tehsils"
      texts="app.tehsils"
      columns={TEHSIL_COLUMNS}
      dialog={TehsilDialog}
      paginationWindow={TEHSIL_PAGE_WINDOW}
      openCreate={openCreate}
      onCreateClosed={openCreate ? () => navigate(TEHSIL_LIST_PATH, { replace: true }) : undefined}
    />
  );
};

export const TehsilCreate = () => <TehsilList openCreate />;
