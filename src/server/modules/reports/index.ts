/** The reports module's face: the dashboard's tiles. */
export { default as reportRoutes } from './routes';
