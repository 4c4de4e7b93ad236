import { useNavigate } from 'react-router-dom';
import { COMMISSION_FIELDS } from '../../../shared/schemas/catalog';
import { col } from '../../lists/columns';
import { ModalList } from '../../lists/ModalList';
import { ProductDialog } from './ProductDialog';
import { PRODUCT_LIST_PATH } from './paths';

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

/**
 * Server paging of 10, Edit on every row, and no Add button: the seed's "No Add button is present in the screen,
 * although a create action exists". The create action is `products/create`, and /product/create opens this list
 * with the create modal (as /location/tehsil/create does); closing it returns to the list path.
 */
export const ProductList = ({ openCreate = false }: { openCreate?: boolean }) => {
  const navigate = useNavigate();
  return (
    <ModalList
      resource="products"
      texts="app.products"
      columns={PRODUCT_COLUMNS}
      dialog={ProductDialog}
      addButton={false}
      openCreate={openCreate}
      onCreateClosed={openCreate ? () => navigate(PRODUCT_LIST_PATH, { replace: true }) : undefined}
    />
  );
};

export const ProductCreate = () => <ProductList openCreate />;
