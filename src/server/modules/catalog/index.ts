/** The catalogue module's face: the partner banks (providers) and the products they sell. */
export { default as catalogRoutes } from './routes';
