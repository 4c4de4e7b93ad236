import { DataTable, type RaRecord } from 'react-admin';
import { formatDate, titleCase } from '../../../shared/format';
import { csv, csvExporter } from '../../lists/csv';
import { ModalList } from '../../lists/ModalList';
import { ProviderDialog } from './ProviderDialog';

export const providerExporter = csvExporter<RaRecord>([
  csv.name('providers', 'name', (r) => r.name),
  csv.date('providers'),
]);

/** Seed section 2, provider list: Name, Created At; Add and Edit. */
export const ProviderList = () => (
  <ModalList resource="providers" texts="app.providers" exporter={providerExporter} dialog={ProviderDialog}>
    <DataTable.Col source="name" render={(r: RaRecord) => titleCase(r.name)} />
    <DataTable.Col source="createdAt" render={(r: RaRecord) => formatDate(r.createdAt)} />
  </ModalList>
);
