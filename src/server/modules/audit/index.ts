/** The audit module's face: who did what (commands and refusals), recorded in the write's transaction. */
export { maskField } from './mask';
export {
  type Actor,
  type AuditRecorder,
  actorOf,
  auditRecorder,
  PARTNER,
  publicActor,
  recordRefusal,
  requestRecorder,
  runCommand,
  SYSTEM,
} from './record';
export { auditRefusals } from './refusals';
export { default as auditRoutes } from './routes';
