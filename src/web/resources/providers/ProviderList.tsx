import { col } from '../../lists/columns';
import { ModalList } from '../../lists/ModalList';
import { ProviderDialog } from './ProviderDialog';

export const PROVIDER_COLUMNS = [
  col.name('name', { sortable: true }),
  col.date('createdAt', { sortable: true }),
];

/** Seed section 2, provider list: Name, Created At; Add and Edit. */
export const ProviderList = () => (
  <ModalList resource="providers" texts="app.providers" columns={PROVIDER_COLUMNS} dialog={ProviderDialog} />
);
