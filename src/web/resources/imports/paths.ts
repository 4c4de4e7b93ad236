/** The Import screen's route (issue 45; not in the seed), apart from the screen so the menu and App need not load it. */
export const IMPORT_PATH = '/import';
