/** The seed's routes (section 2) for this resource, apart from its screens so the menu and App need not load them. */
export const AUDIT_LIST_PATH = '/audit/list';
