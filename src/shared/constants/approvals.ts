// The approvals constants both sides use (issue 51: power needs two people), without zod.

/**
 * Making an admin and resetting another admin's password or second step are commands another admin approves, as
 * money commands are. The checker is never the maker, nor the person the command is for.
 */
export const APPROVAL_MSG = {
  subjectCannotDecide: 'This command is about you: another admin must approve or reject it',
  reasonRequired: 'A reason for the request is required',
  alreadyPending: 'The same request already waits for approval',
  adminNotFound: 'Admin not found',
  employeeNotFound: 'Employee not found',
  inactiveEmployee: 'Only an active employee can be made an admin',
  notForYourself: 'Your own password and second step are changed from your own account, not through approval',
  adminPasswordNotChosen:
    "An admin's first password is not chosen by its maker: the admin who approves receives a one-time password",
  // 202: waiting
  adminCreationPending: 'The new admin awaits approval by another admin: nobody is created yet',
  promotionPending: 'Making this employee an admin awaits approval by another admin',
  passwordResetPending: "Resetting this admin's password awaits approval by another admin",
  secondStepResetPending: "Resetting this admin's second step awaits approval by another admin",
  // 200: approved
  adminCreated:
    'Approved: the admin is created. Hand over its one-time password in person: it is shown only now',
  adminPromoted: 'Approved: the employee is an admin now, and chooses a new password at its next sign-in',
  passwordReset:
    "Approved: the admin's password is reset and its sessions have ended. Hand over the one-time password in person: it is shown only now",
  secondStepReset: "Approved: the admin's second step is reset and its sessions have ended",
} as const;
