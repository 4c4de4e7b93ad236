import { Box, Link, Typography } from '@mui/material';
import {
  DataTable,
  ExportButton,
  List,
  type RaRecord,
  ResourceContextProvider,
  SearchInput,
  SelectInput,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { SALE_STATUSES } from '../../../shared/enums';
import { formatDate, formatRupees, titleCase } from '../../../shared/format';
import { PAGE_SIZE } from '../../../shared/rules';
import { csv, csvExporter } from '../../lists/csv';
import { ListPagination } from '../../lists/ListPagination';
import { NoData } from '../../lists/NoData';
import { SaleStatusChip } from './SaleChips';

export const SALE_LIST_PATH = '/sale/list';
export const SALE_PAGE_PATH = '/sale/:id';
export const salePath = (id: unknown) => `/sale/${encodeURIComponent(String(id))}`;

export const saleExporter = csvExporter<RaRecord>([
  csv.name('sales', 'customer.name', (r) => r.customer?.name),
  csv.name('sales', 'retailer.name', (r) => r.retailer?.name),
  csv.name('sales', 'product.name', (r) => r.product?.name),
  csv.raw('sales', 'amount'),
  csv.raw('sales', 'utmCode'),
  csv.raw('sales', 'status'),
  csv.date('sales'),
  csv.date('sales', 'confirmedAt'),
]);

/** Search (`q` -> searchText: the utmCode or the customer's name) and the status. */
const saleFilters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput
    key="status"
    source="status"
    choices={SALE_STATUSES.map((id) => ({ id, name: id }))}
    translateChoice={false}
    emptyText="app.sales.allStatuses"
    alwaysOn
  />,
];

/**
 * Every bought product (ADMIN, EMPLOYEE; a retailer gets its own, scoped by the server): customer, retailer,
 * product, the amount frozen when it was recorded, utmCode, status, created and confirmed at; newest first, 10 a
 * page. A row (or its utmCode link, for the keyboard) opens the sale's page.
 */
export const SaleList = () => {
  const translate = useTranslate();
  return (
    <ResourceContextProvider value="sales">
      <Box sx={{ pt: 2 }}>
        <Typography variant="h5" component="h1">
          {translate('app.sales.title')}
        </Typography>
        <Typography color="text.secondary">{translate('app.sales.subtitle')}</Typography>
      </Box>
      <List
        resource="sales"
        title={translate('app.sales.title')}
        perPage={PAGE_SIZE}
        sort={{ field: 'createdAt', order: 'DESC' }}
        filters={saleFilters}
        actions={
          <TopToolbar>
            <ExportButton />
          </TopToolbar>
        }
        exporter={saleExporter}
        pagination={<ListPagination />}
        empty={false}
      >
        <DataTable rowClick={(id) => salePath(id)} bulkActionButtons={false} empty={<NoData />}>
          <DataTable.Col
            source="customer.name"
            disableSort
            render={(r: RaRecord) => titleCase(r.customer?.name)}
          />
          <DataTable.Col
            source="retailer.name"
            disableSort
            render={(r: RaRecord) => titleCase(r.retailer?.name)}
          />
          <DataTable.Col
            source="product.name"
            disableSort
            render={(r: RaRecord) => titleCase(r.product?.name)}
          />
          <DataTable.Col
            source="amount"
            disableSort
            align="right"
            render={(r: RaRecord) => formatRupees(r.amount)}
          />
          <DataTable.Col
            source="utmCode"
            disableSort
            render={(r: RaRecord) => (
              <Link
                component={RouterLink}
                to={salePath(r.id)}
                onClick={(event) => event.stopPropagation()}
                aria-label={translate('app.sales.viewRow', { code: r.utmCode })}
              >
                {r.utmCode}
              </Link>
            )}
          />
          <DataTable.Col
            source="status"
            disableSort
            render={(r: RaRecord) => <SaleStatusChip status={r.status} />}
          />
          <DataTable.Col source="createdAt" disableSort render={(r: RaRecord) => formatDate(r.createdAt)} />
          <DataTable.Col
            source="confirmedAt"
            disableSort
            render={(r: RaRecord) => formatDate(r.confirmedAt)}
          />
        </DataTable>
      </List>
    </ResourceContextProvider>
  );
};
