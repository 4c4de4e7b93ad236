/**
 * The partner module's face: the account-opening calls to the partner, the partner's signed callback (whose
 * events the sales module applies), and the built-in sandbox partner.
 */
export { default as partnerCallback } from './callback';
export { default as partnerRoutes, selfOrigin } from './routes';
export { default as sandboxPartner } from './sandbox';
