import { DataTable, type RaRecord } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { formatDate, titleCase } from '../../../shared/format';
import { csv, csvExporter } from '../../lists/csv';
import { ModalList } from '../../lists/ModalList';
import { TehsilDialog } from './TehsilDialog';

export const TEHSIL_LIST_PATH = '/location/tehsil/list';
export const TEHSIL_CREATE_PATH = '/location/tehsil/create';

/** Seed section 9: the tehsil list shows a window of 5 page links. */
const TEHSIL_PAGE_WINDOW = 5;

export const tehsilExporter = csvExporter<RaRecord>([
  csv.name('tehsils', 'state.name', (r) => r.state?.name),
  csv.name('tehsils', 'district.name', (r) => r.district?.name),
  csv.name('tehsils', 'name', (r) => r.name),
  csv.date('tehsils'),
]);

/**
 * Seed section 2, location lists: State Name, District Name, Tehsil Name, Created At. At
 * /location/tehsil/create the list opens with the create modal, and closing it returns to the list path.
 */
export const TehsilList = ({ openCreate = false }: { openCreate?: boolean }) => {
  const navigate = useNavigate();
  return (
    <ModalList
      resource="tehsils"
      texts="app.tehsils"
      exporter={tehsilExporter}
      dialog={TehsilDialog}
      paginationWindow={TEHSIL_PAGE_WINDOW}
      openCreate={openCreate}
      onCreateClosed={openCreate ? () => navigate(TEHSIL_LIST_PATH, { replace: true }) : undefined}
    >
      <DataTable.Col source="state.name" disableSort render={(r: RaRecord) => titleCase(r.state?.name)} />
      <DataTable.Col
        source="district.name"
        disableSort
        render={(r: RaRecord) => titleCase(r.district?.name)}
      />
      <DataTable.Col source="name" render={(r: RaRecord) => titleCase(r.name)} />
      <DataTable.Col source="createdAt" render={(r: RaRecord) => formatDate(r.createdAt)} />
    </ModalList>
  );
};

export const TehsilCreate = () => <TehsilList openCreate />;
