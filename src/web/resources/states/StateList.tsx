import { DataTable, type RaRecord } from 'react-admin';
import { formatDate, titleCase } from '../../../shared/format';
import { csv, csvExporter } from '../../lists/csv';
import { ModalList } from '../../lists/ModalList';
import { StateDialog } from './StateDialog';

export const stateExporter = csvExporter<RaRecord>([
  csv.name('states', 'name', (r) => r.name),
  csv.date('states'),
]);

/** Seed section 2, location lists: Name, Created At; Add and Edit. */
export const StateList = () => (
  <ModalList resource="states" texts="app.states" exporter={stateExporter} dialog={StateDialog}>
    <DataTable.Col source="name" render={(r: RaRecord) => titleCase(r.name)} />
    <DataTable.Col source="createdAt" render={(r: RaRecord) => formatDate(r.createdAt)} />
  </ModalList>
);
