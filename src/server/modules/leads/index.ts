/** The leads module's face: the public sign-up form, its files, and the review that turns a lead into a user. */
export { bringInUploads, uploadsAtStartLines } from './files';
export { default as leadRoutes } from './routes';
