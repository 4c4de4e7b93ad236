/** The locations module's face: states, districts and tehsils, and the check that a user's place is one chain. */
export { checkLocationChain } from './queries';
export { default as locationRoutes } from './routes';
