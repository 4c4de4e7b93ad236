/**
 * The sales module's face: recording a sale, the partner's events that confirm, fail or reverse it (applied
 * here, received by the partner module), and what an account opening is bound to.
 */
export { rebuildSaleDays } from './counters';
export { default as salesRoutes } from './routes';
export {
  applyProviderEvent,
  EventIdReused,
  openingBinding,
  productById,
  recordSale,
  sellableCustomer,
} from './service';
