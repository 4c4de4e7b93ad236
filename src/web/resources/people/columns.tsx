import type { RaRecord } from 'react-admin';
import { UserStatus } from '../../../shared/enums';
import { CodeChip } from '../../lists/CodeChip';
import { type Column, col } from '../../lists/columns';

/**
 * The columns of the user lists (seed section 2), each declared once: names in title case, dates in medium format,
 * money in rupees. Each list picks them in the seed's order. On a laptop (below 1536 px) email, Aadhar and the date
 * collapse, below 1200 px the location and PAN too, so the rest and the row actions fit (the CSV has them all).
 */
export const USER_COLUMNS = {
  name: col.name('name'),
  mobile: col.text('mobile'),
  email: col.text('email', { hideBelow: 'xl' }),
  masterDistributor: col.name('masterDistributor.name'),
  distributor: col.name('distributor.name'),
  retailer: col.name('retailer.name'),
  district: col.name('district.name', { hideBelow: 'lg' }),
  tehsil: col.name('tehsil.name', { hideBelow: 'lg' }),
  panId: col.text('panId', { hideBelow: 'lg' }),
  aadharId: col.text('aadharId', { hideBelow: 'xl' }),
  balance: col.money('balance'),
  clearingBalance: col.money('clearingBalance'),
  status: col.enum('status', 'userStatus', {
    render: (record: RaRecord) => (
      <CodeChip
        group="userStatus"
        code={record.status}
        color={record.status === UserStatus.ACTIVE ? 'success' : 'default'}
      />
    ),
  }),
  createdAt: col.date('createdAt', { hideBelow: 'xl' }),
} satisfies Record<string, Column>;

export type UserColumn = keyof typeof USER_COLUMNS;

/** The user list's columns, in the given order. */
export const userColumns = (names: UserColumn[]): Column[] => names.map((name) => USER_COLUMNS[name]);
