/** The approvals module's face (maker-checker, issue 43): what other modules may use. */

export { payoutNeedsApproval, submitAdjustment, submitPayout } from './commands';
export { default as approvalRoutes, personOf } from './routes';
