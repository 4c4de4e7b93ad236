import { Chip } from '@mui/material';
import type { RaRecord } from 'react-admin';
import { UserStatus } from '../../../shared/enums';
import { formatDate, formatRupees, titleCase } from '../../../shared/format';
import { type CsvColumn, csv } from '../../lists/csv';
import type { en } from '../../providers/en';

/**
 * Cell renderers of the user lists (seed section 2): names in title case, dates in medium format, money in
 * rupees with two decimals. Each list picks its columns in the seed's order.
 */
export const cell = {
  name: (r: RaRecord) => titleCase(r.name),
  district: (r: RaRecord) => titleCase(r.district?.name),
  tehsil: (r: RaRecord) => titleCase(r.tehsil?.name),
  masterDistributor: (r: RaRecord) => titleCase(r.masterDistributor?.name),
  distributor: (r: RaRecord) => titleCase(r.distributor?.name),
  retailer: (r: RaRecord) => titleCase(r.retailer?.name),
  balance: (r: RaRecord) => formatRupees(r.balance),
  clearingBalance: (r: RaRecord) => formatRupees(r.clearingBalance),
  createdAt: (r: RaRecord) => formatDate(r.createdAt),
  status: (r: RaRecord) => (
    <Chip
      size="small"
      variant="outlined"
      label={r.status}
      color={r.status === UserStatus.ACTIVE ? 'success' : 'default'}
    />
  ),
};

type UserResource = 'masterDistributors' | 'distributors' | 'retailers' | 'customers' | 'employees';
type UserColumn = keyof typeof en.resources.masterDistributors.fields;

/**
 * CSV columns of a user list, in the given order, with the list's readable values (names, not ids; money as
 * plain rupee numbers a spreadsheet can add up).
 */
export const userCsvColumns = (resource: UserResource, columns: UserColumn[]): CsvColumn[] =>
  columns.map((column) => {
    switch (column) {
      case 'name':
        return csv.name(resource, 'name', (r) => r.name);
      case 'district.name':
        return csv.name(resource, column, (r) => r.district?.name);
      case 'tehsil.name':
        return csv.name(resource, column, (r) => r.tehsil?.name);
      case 'masterDistributor.name':
        return csv.name(resource, column, (r) => r.masterDistributor?.name);
      case 'distributor.name':
        return csv.name(resource, column, (r) => r.distributor?.name);
      case 'retailer.name':
        return csv.name(resource, column, (r) => r.retailer?.name);
      case 'createdAt':
        return csv.date(resource);
      default:
        return csv.raw(resource, column);
    }
  });
