/** The seed's list route (section 2), and Tierdesk's create route (the seed's screen has no Add button). */
export const PRODUCT_CREATE_PATH = '/product/create';
export const PRODUCT_LIST_PATH = '/product/list';
