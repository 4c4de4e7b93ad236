/** The statements module's face: a tier user's monthly statement (issue 43), as JSON, CSV or PDF. */
export { default as statementRoutes } from './routes';
