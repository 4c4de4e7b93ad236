/** The Webhooks screen's route, apart from its page so the menu and App need not load it. */
export const WEBHOOKS_LIST_PATH = '/webhooks/list';
