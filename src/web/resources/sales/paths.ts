/** The seed's routes (section 2) for this resource, apart from its screens so the menu and App need not load them. */
export const SALE_LIST_PATH = '/sale/list';
export const SALE_PAGE_PATH = '/sale/:id';
