/** The seed's routes (section 2) for this resource, apart from its screens so the menu and App need not load them. */
export const WALLET_PATH = '/wallet';
