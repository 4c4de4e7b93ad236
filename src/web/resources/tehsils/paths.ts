/** The seed's routes (section 2) for this resource, apart from its screens so the menu and App need not load them. */
export const TEHSIL_CREATE_PATH = '/location/tehsil/create';
export const TEHSIL_LIST_PATH = '/location/tehsil/list';
