/** The approvals module's face (maker-checker, issues 43 and 51): what other modules and the server may use. */

export { makePayout, payoutApprovalReason, submitAdjustment } from './commands';
export { adminCreation, default as approvalRoutes, personOf } from './routes';
