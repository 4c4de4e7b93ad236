/**
 * The imports module's face: bulk import from CSV (issue 45), its routes and the batch settings tests adjust.
 */
export { default as importRoutes } from './routes';
export { importSettings } from './run';
