/**
 * The account module's face: people (users of every type), their sessions, sign-in and the counter rows the
 * lists' totals and the dashboard read. Other modules and the server import only this file.
 */
export {
  type AdminDraft,
  adminCount,
  checkAdminDraft,
  createAdmin,
  lockedAdmin,
  lockedEmployee,
  markNewAdmin,
  newOneTimePassword,
  promoteToAdmin,
  resetAdminPassword,
  resetSecondStep,
} from './admins';
export { ensureBootstrapAdmin } from './bootstrap';
export { createPeople, type PersonDraft } from './bulk';
export { countNewUser, countsOf, rebuildCounts } from './counts';
export { hashPassword } from './passwords';
export { peopleService } from './people';
export { type AdminCreation, default as accountRoutes } from './routes';
export { clearSecondStep, requireStepUp } from './second-step';
export { default as securityRoutes } from './security-routes';
export type { SessionUser } from './sessions';
export { signInNameClashWarning } from './sign-in-names';
export { throttlePruning } from './throttle';
export { findVisibleUser, userNameOf } from './users';
