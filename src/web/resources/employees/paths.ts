/** The seed's routes (section 2) for this resource, apart from its screens so the menu and App need not load them. */
export const EMPLOYEE_LIST_PATH = '/employee/list';
