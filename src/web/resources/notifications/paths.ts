/** The Notifications screen's route, apart from its page so the menu and App need not load it. */
export const NOTIFICATIONS_LIST_PATH = '/notifications/list';
