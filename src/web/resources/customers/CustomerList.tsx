import { ModalList } from '../../lists/ModalList';
import { userColumns } from '../people/columns';
import { useUpdateStatusAction } from '../people/UpdateStatus';
import { useSelectProductAction } from '../sales/SelectProduct';
import { CustomerDialog } from './CustomerDialog';

/**
 * Seed section 2, customer list (titled Customers): name, mobile, email, PAN id, Aadhar id (masked by the server),
 * retailer, district, tehsil, created at.
 */
export const CUSTOMER_COLUMNS = userColumns([
  'name',
  'mobile',
  'email',
  'panId',
  'aadharId',
  'retailer',
  'district',
  'tehsil',
  'createdAt',
]);

/**
 * Select Product for the roles that sell (ADMIN, EMPLOYEE, RETAILER), Update Status for ADMIN, Edit. Unlike the
 * seed, page changes do page.
 */
export const CustomerList = () => {
  const sell = useSelectProductAction();
  const status = useUpdateStatusAction();
  return (
    <ModalList
      resource="customers"
      importKind="customers"
      texts="app.customers"
      columns={CUSTOMER_COLUMNS}
      dialog={CustomerDialog}
      rowActions={[...sell, ...status]}
    />
  );
};
