import { DataTable, type RaRecord } from 'react-admin';
import { formatDate, formatRupees, titleCase } from '../../../shared/format';
import { COMMISSION_FIELDS } from '../../../shared/schemas/catalog';
import { csv, csvExporter } from '../../lists/csv';
import { ModalList } from '../../lists/ModalList';
import { ProductDialog } from './ProductDialog';

export const productExporter = csvExporter<RaRecord>([
  csv.name('products', 'name', (r) => r.name),
  csv.name('products', 'provider.name', (r) => r.provider?.name),
  csv.raw('products', 'amount'),
  ...COMMISSION_FIELDS.map((field) => csv.raw('products', field)),
  csv.date('products'),
]);

/**
 * Seed section 2, product list: name, provider, amount, the five commissions, created at, Edit; server paging
 * of 10. Tierdesk adds 'Add Product' for the roles that may create (the create action the seed mentions).
 */
export const ProductList = () => (
  <ModalList resource="products" texts="app.products" exporter={productExporter} dialog={ProductDialog}>
    <DataTable.Col source="name" render={(r: RaRecord) => titleCase(r.name)} />
    <DataTable.Col source="provider.name" disableSort render={(r: RaRecord) => titleCase(r.provider?.name)} />
    <DataTable.NumberCol source="amount" disableSort render={(r: RaRecord) => formatRupees(r.amount)} />
    {COMMISSION_FIELDS.map((field) => (
      <DataTable.NumberCol key={field} source={field} disableSort />
    ))}
    <DataTable.Col source="createdAt" render={(r: RaRecord) => formatDate(r.createdAt)} />
  </ModalList>
);
