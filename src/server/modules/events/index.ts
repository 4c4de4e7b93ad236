/**
 * The events module's face (issue 55): the event stream (`GET events`) and the events the other modules raise in
 * the transactions of their changes, so a change is announced only once it committed, on every server.
 */
export {
  approvalChanged,
  commissionsSettled,
  importChanged,
  leadChanged,
  type SaleForEvent,
  saleChanged,
  sessionsEnded,
} from './raise';
export { default as eventRoutes } from './routes';
