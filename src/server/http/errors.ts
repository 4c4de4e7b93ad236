import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError, type ZodType, type z } from 'zod';
import { MSG } from '../../shared/messages';
import type { ErrorBody } from '../../shared/wire';
import { Conflict, DatabaseUnavailable, DomainError, isSwitchover, NotFound } from '../db/errors';
import { primaryAbsent } from '../db/transaction';

/**
 * An error whose message is meant for the caller (4xx). Anything else answers a generic 500. `result`: what the
 * refusal tells the client to do next, beside its message (the sign-in's `{ mfaRequired: true }`).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: ErrorBody['errors'],
    readonly headers?: Record<string, string>,
    readonly result?: ErrorBody['result'],
  ) {
    super(message);
  }
}

export const badRequest = (message: string, param?: string) =>
  new HttpError(400, message, param ? [{ msg: message, param }] : undefined);
export const unauthorized = (message: string = MSG.authRequired) => new HttpError(401, message);
/** The sign-in needs the second step: 401 with `result.mfaRequired`, and no session. */
export const secondStepRequired = (message: string) =>
  new HttpError(401, message, undefined, undefined, { mfaRequired: true });
export const forbidden = (message: string = MSG.forbidden) => new HttpError(403, message);
export const notFound = (message: string = MSG.notFound) => new HttpError(404, message);
export const conflict = (message: string, param?: string) =>
  new HttpError(409, message, param ? [{ msg: message, param }] : undefined);

export function zodToHttpError(error: ZodError): HttpError {
  const errors = error.issues.map((issue) => ({ msg: issue.message, param: issue.path.join('.') }));
  return new HttpError(400, MSG.validationFailed, errors);
}

/** The status each refusal of the domain answers (db/errors.ts); a kind without one is a bug, answered 500. */
function domainToHttpError(error: DomainError): HttpError | undefined {
  if (error instanceof NotFound) return notFound(error.message);
  if (error instanceof Conflict) return conflict(error.message, error.param);
  return undefined;
}

/**
 * How long a client is told to wait before sending again, when no primary database answered: a failover takes a few
 * seconds once it has begun.
 */
export const RETRY_AFTER_SECONDS = 5;

/** 503 with Retry-After: no primary database answered (a failover under way, db/transaction.ts). */
const databaseSwitching = () =>
  new HttpError(503, MSG.databaseSwitching, undefined, { 'retry-after': String(RETRY_AFTER_SECONDS) });

/**
 * Whether `error` is the app's own answer (an HttpError of any status, a refusal of the domain, invalid input, one
 * of Fastify's 4xx) rather than a failure: only a failure can be the database's.
 */
export function isAppAnswer(error: unknown): boolean {
  if (error instanceof HttpError || error instanceof DomainError || error instanceof ZodError) return true;
  const statusCode = (error as FastifyError | null)?.statusCode;
  return typeof statusCode === 'number' && statusCode < 500;
}

/** Validates input against a shared zod schema; refusals list every field message. */
export function parseInput<S extends ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw zodToHttpError(parsed.error);
  return parsed.data;
}

/** The wire contract's body for any error: 4xx keep their message, everything else the generic one. */
export function errorBody(error: unknown): {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
} {
  if (error instanceof HttpError) {
    const body: ErrorBody = { message: error.message };
    if (error.errors) body.errors = error.errors;
    if (error.result) body.result = error.result;
    return { status: error.status, body, headers: error.headers };
  }
  if (error instanceof DatabaseUnavailable || isSwitchover(error)) return errorBody(databaseSwitching());
  const domain = error instanceof DomainError ? domainToHttpError(error) : undefined;
  if (domain) return errorBody(domain);
  if (error instanceof ZodError) {
    const http = zodToHttpError(error);
    return { status: http.status, body: { message: http.message, errors: http.errors } };
  }
  const statusCode = (error as FastifyError | null)?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    // Fastify's own refusals: bad JSON, unsupported media type, body too large.
    return { status: statusCode, body: { message: String((error as Error).message) } };
  }
  return { status: 500, body: { message: MSG.internalError } };
}

/** What Node refuses in a header value: a route that set one would fail again while answering its error. */
const INVALID_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

const ANSWERED = Symbol('errorAnswered');

/**
 * One central error handler: 4xx keep their message, 5xx answer a generic one and are logged; a failure of the
 * primary database (said by the error, or, for one nothing else explains, by a primary that does not answer now)
 * answers 503 with Retry-After and MSG.databaseSwitching, never 500. Registered at
 * the root and again on the /api scope, so that if sending an error answer fails in turn (an onSend hook
 * throwing), the outer copy answers directly, past the hooks, instead of Fastify's fallback error object.
 * Headers the route set that Node cannot send are dropped first, or the error answer would fail the same way.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler(async (error: FastifyError | HttpError | ZodError, request, reply) => {
    const marked = request as FastifyRequest & { [ANSWERED]?: boolean };
    if (marked[ANSWERED]) {
      request.log.error({ err: error }, 'sending the error answer failed');
      if (reply.raw.headersSent) return reply.raw.destroy();
      reply.hijack();
      reply.raw.writeHead(500, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      });
      reply.raw.end(JSON.stringify({ message: MSG.internalError }));
      return;
    }
    marked[ANSWERED] = true;
    for (const [name, value] of Object.entries(reply.getHeaders()))
      if ([value].flat().some((v) => INVALID_HEADER_VALUE.test(String(v)))) reply.removeHeader(name);
    let answer = errorBody(error);
    // The app without a database (a test's bare app) has nothing to ask.
    const db = (request.server as Partial<Pick<FastifyInstance, 'db'>>).db;
    if (answer.status === 500 && !isAppAnswer(error) && db && (await primaryAbsent(db, error)))
      answer = errorBody(databaseSwitching());
    const { status, body, headers } = answer;
    // A refusal or a failure is about this one request: never kept by a browser or a proxy.
    reply.header('cache-control', 'no-store');
    if (headers) reply.headers(headers);
    if (status === 503) request.log.warn({ err: error }, 'no primary database answered');
    else if (status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.status(status).send(body);
  });
}

/** Unknown API paths: JSON 404, never cached, whoever asks (registered on the `/api` scope and the root). */
export function notFoundJson(request: FastifyRequest, reply: FastifyReply) {
  // Set here, not only by the /api scope's hook: with the panel built, the static files' wildcard route answers an
  // unknown API path first and hands it to the root's not-found handler, outside that scope.
  return reply
    .status(404)
    .header('cache-control', 'no-store')
    .send({ message: MSG.routeNotFound(request.method, request.url.split('?')[0]) });
}
