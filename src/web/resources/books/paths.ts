/** The Books screen's route, apart from its screen so the menu and App need not load it. */
export const BOOKS_PATH = '/books';
