/** The Approvals screen's route, apart from its screens so the menu and App need not load them. */
export const APPROVALS_LIST_PATH = '/approvals/list';
