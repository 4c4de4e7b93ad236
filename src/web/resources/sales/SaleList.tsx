import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { Link } from '@mui/material';
import { useMemo } from 'react';
import { type RaRecord, SearchInput, useCanAccess, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { SALE_STATUSES } from '../../../shared/enums';
import { enumChoices } from '../../i18n/enums';
import { col } from '../../lists/columns';
import { FittedSelectInput } from '../../lists/FittedSelectInput';
import { ResourceList } from '../../lists/ResourceList';
import { type RowAction, RowActionButton } from '../../lists/RowActions';
import { useReopenSale } from './reopen';
import { SaleStatusChip } from './SaleChips';
import { ReceiptRowButton } from './SaleReceipt';

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

/** A PENDING row's account opening again, in a new tab (`bought_products/opening/:id`). */
const ReopenRowButton = ({ record }: { record: RaRecord }) => {
  const translate = useTranslate();
  const { reopen } = useReopenSale();
  return (
    <RowActionButton
      label="app.sales.reopen"
      ariaLabel={translate('app.sales.reopenRow', { code: record.utmCode })}
      icon={<OpenInNewIcon fontSize="small" />}
      onClick={() => reopen(record.id)}
    />
  );
};

/** Reopen on PENDING rows, for the roles that sell; Receipt on every row, for those who may read receipts. */
const useRowActions = (): RowAction[] => {
  const { canAccess: maySell } = useCanAccess({ resource: 'sales', action: 'create' });
  const { canAccess: mayReadReceipts } = useCanAccess({ resource: 'saleReceipts', action: 'read' });
  return useMemo(
    () => [
      ...(maySell
        ? [
            {
              key: 'reopen',
              render: (record: RaRecord) =>
                record.status === 'PENDING' ? <ReopenRowButton record={record} /> : null,
            },
          ]
        : []),
      ...(mayReadReceipts
        ? [{ key: 'receipt', render: (record: RaRecord) => <ReceiptRowButton record={record} /> }]
        : []),
    ],
    [maySell, mayReadReceipts],
  );
};

/**
 * Every bought product (ADMIN, EMPLOYEE; a retailer gets its own, scoped by the server), newest first, 10 a page.
 * A row (or its utmCode link, for the keyboard) opens the sale's page; a PENDING row reopens its account opening;
 * every row's Receipt prints the receipt or gives its PDF.
 * `?filter={"customerId":…}` (a customer row's Sales) lists one customer's sales.
 */
export const SaleList = () => {
  const rowActions = useRowActions();
  return (
    <ResourceList
      resource="sales"
      texts="app.sales"
      columns={SALE_COLUMNS}
      filters={saleFilters}
      rowClick={(id) => salePath(id)}
      rowActions={rowActions}
    />
  );
};
