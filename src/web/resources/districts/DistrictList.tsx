import { DataTable, type RaRecord } from 'react-admin';
import { formatDate, titleCase } from '../../../shared/format';
import { csv, csvExporter } from '../../lists/csv';
import { ModalList } from '../../lists/ModalList';
import { DistrictDialog } from './DistrictDialog';

export const districtExporter = csvExporter<RaRecord>([
  csv.name('districts', 'state.name', (r) => r.state?.name),
  csv.name('districts', 'name', (r) => r.name),
  csv.date('districts'),
]);

/** Seed section 2, location lists: State Name, Name, Created At; Add and Edit. */
export const DistrictList = () => (
  <ModalList resource="districts" texts="app.districts" exporter={districtExporter} dialog={DistrictDialog}>
    <DataTable.Col source="state.name" disableSort render={(r: RaRecord) => titleCase(r.state?.name)} />
    <DataTable.Col source="name" render={(r: RaRecord) => titleCase(r.name)} />
    <DataTable.Col source="createdAt" render={(r: RaRecord) => formatDate(r.createdAt)} />
  </ModalList>
);
