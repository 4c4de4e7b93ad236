/**
 * The audit trail's vocabulary (issue 10): who acts, on what, doing what. Both the server (which writes and
 * filters the rows) and the panel's Audit screen (its filters) read these.
 */
export const AUDIT_ACTOR_KINDS = ['USER', 'PARTNER', 'SYSTEM', 'PUBLIC'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

export const AUDIT_ENTITIES = [
  'user',
  'state',
  'district',
  'tehsil',
  'provider',
  'product',
  'lead',
  'accountOpening',
  'sale',
  'wallet',
  'posting',
  'tdsDeposit',
  'route',
  'approval',
  'import',
  'webhook',
  'notification',
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/** Every action the server records: `<entity>.<verb>`; refusals end in `.failed`, or are `access.denied`. */
export const AUDIT_ACTIONS = [
  'user.login',
  'user.login.failed',
  'user.logout',
  'user.password',
  'user.password.failed',
  'user.mfa.on',
  'user.mfa.off',
  'user.mfa.failed',
  'user.session.end',
  'user.create',
  'user.update',
  'user.status',
  'state.create',
  'state.update',
  'district.create',
  'district.update',
  'tehsil.create',
  'tehsil.update',
  'provider.create',
  'provider.update',
  'product.create',
  'product.update',
  'lead.create',
  'lead.approve',
  'lead.reject',
  'accountOpening.create',
  'sale.create',
  'provider.event',
  'wallet.settle',
  'wallet.payout',
  'tds.deposit',
  'wallet.adjust',
  'approval.request',
  'approval.approve',
  'approval.reject',
  'user.promote',
  'user.password.reset',
  'user.secondStep.reset',
  'import.run',
  'import.export',
  'access.denied',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'notification.retry',
  'user.preferences',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Shown instead of a value the trail never records (Aadhar numbers). */
export const NOT_RECORDED = '[not recorded]';
