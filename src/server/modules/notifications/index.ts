/**
 * The notifications module's face (issue 55): the outbox other modules write into from inside their transactions
 * (notify), the delivery job, and the routes (webhook endpoints, deliveries, one's own choices).
 */
export { approvers, type Notice, notify, notifyEach, type Recipient } from './outbox';
export { default as notificationRoutes } from './routes';
export { startNotificationRunner } from './runner';
