/** The Statements screen's routes, apart from its screens so the menu, App and the user lists need not load them. */
export const STATEMENTS_PATH = '/statements';
/** One user's statements, opened by staff from the user's row. */
export const USER_STATEMENTS_PATH = '/statements/:userId';
export const userStatementsPath = (userId: string) => `/statements/${encodeURIComponent(userId)}`;
