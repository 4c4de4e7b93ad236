import { COMMISSION_FIELDS } from '../../../shared/schemas/catalog';
import { col } from '../../lists/columns';
import { ModalList } from '../../lists/ModalList';
import { ProductDialog } from './ProductDialog';

/**
 * Seed section 2, product list: name, provider, amount (rupees), the five commissions (percent), created at. The
 * commissions collapse below 1200 px, where the modal shows them.
 */
export const PRODUCT_COLUMNS = [
  col.name('name', { sortable: true }),
  col.name('provider.name'),
  col.money('amount'),
  ...COMMISSION_FIELDS.map((field) => col.percent(field, { hideBelow: 'lg' })),
  col.date('createdAt', { sortable: true }),
];

/** Server paging of 10. Tierdesk adds 'Add Product' for the roles that may create (the create action the seed mentions). */
export const ProductList = () => (
  <ModalList resource="products" texts="app.products" columns={PRODUCT_COLUMNS} dialog={ProductDialog} />
);
