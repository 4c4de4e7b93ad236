/** The seed's routes (section 2) for this resource, apart from its screens so the menu and App need not load them. */
export const MASTER_DISTRIBUTOR_LIST_PATH = '/master/distributor/list';
