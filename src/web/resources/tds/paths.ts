/** The TDS screen's route, apart from its screen so the menu and App need not load it. */
export const TDS_PATH = '/tds';
