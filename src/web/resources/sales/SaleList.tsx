import { Link } from '@mui/material';
import { type RaRecord, SearchInput, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { SALE_STATUSES } from '../../../shared/enums';
import { enumChoices } from '../../i18n/enums';
import { col } from '../../lists/columns';
import { FittedSelectInput } from '../../lists/FittedSelectInput';
import { ResourceList } from '../../lists/ResourceList';
import { SaleStatusChip } from './SaleChips';

export const salePath = (id: unknown) => `/sale/${encodeURIComponent(String(id))}`;

/** The utmCode as a link to the sale's page (a row opens it too; the link is the keyboard's way). */
const SaleLink = ({ record }: { record: RaRecord }) => {
  const translate = useTranslate();
  return (
    <Link
      component={RouterLink}
      to={salePath(record.id)}
      onClick={(event) => event.stopPropagation()}
      aria-label={translate('app.sales.viewRow', { code: record.utmCode })}
    >
      {record.utmCode}
    </Link>
  );
};

/** Customer, retailer, product, the amount frozen when it was recorded, utmCode, status, created and confirmed at. */
export const SALE_COLUMNS = [
  col.name('customer.name'),
  col.name('retailer.name', { hideBelow: 'lg' }),
  col.name('product.name'),
  col.money('amount'),
  col.text('utmCode', { render: (r: RaRecord) => <SaleLink record={r} /> }),
  col.enum('status', 'saleStatus', { render: (r: RaRecord) => <SaleStatusChip status={r.status} /> }),
  col.date('createdAt', { hideBelow: 'md' }),
  col.date('confirmedAt', { hideBelow: 'xl' }),
];

/** Search (`q` -> searchText: the utmCode or the customer's name) and the status. */
const saleFilters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <FittedSelectInput
    key="status"
    source="status"
    choices={enumChoices('saleStatus', SALE_STATUSES)}
    emptyText="app.sales.allStatuses"
    alwaysOn
  />,
];

/**
 * Every bought product (ADMIN, EMPLOYEE; a retailer gets its own, scoped by the server), newest first, 10 a page.
 * A row (or its utmCode link, for the keyboard) opens the sale's page.
 */
export const SaleList = () => (
  <ResourceList
    resource="sales"
    texts="app.sales"
    columns={SALE_COLUMNS}
    filters={saleFilters}
    rowClick={(id) => salePath(id)}
  />
);
