/** A tier user's own TDS screen's route, apart from its screen so the menu and App need not load it. */
export const MY_TDS_PATH = '/my-tds';
