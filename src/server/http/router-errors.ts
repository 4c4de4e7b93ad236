import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import {
  type ConnectionError,
  errorCodes,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { MSG } from '../../shared/messages';
import type { ErrorBody } from '../../shared/wire';

/**
 * Fastify answers some requests before any route or hook: a path that is not valid percent-encoding (`%FF`) or has
 * a part longer than the router takes, in its router; a request Node cannot parse (the request line and headers
 * over Node's 16 KB, a timeout, bytes that are not HTTP), on the socket. Its own answers there are bare (its error
 * object, no security header). These answer the envelope instead, with the app's security headers (`headers`, from
 * http/security-headers.ts) and `no-store`, through the two options Fastify documents for them.
 */
export function routerErrorOptions(headers: Record<string, string>) {
  const refusal = (status: number, message: string) => ({ status, body: { message } satisfies ErrorBody });

  /** Fastify's `frameworkErrors`: refusals of its router, which runs before any hook of the app. */
  function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    let answer: ReturnType<typeof refusal>;
    if (error instanceof errorCodes.FST_ERR_BAD_URL) answer = refusal(400, MSG.badUrl);
    else if (error instanceof errorCodes.FST_ERR_MAX_PARAM_LENGTH) answer = refusal(414, MSG.pathPartTooLong);
    else {
      // An async route constraint failing: the app declares none.
      request.log.error({ err: error }, 'request failed');
      answer = refusal(500, MSG.internalError);
    }
    reply
      .code(answer.status)
      .headers({ ...headers, 'cache-control': 'no-store' })
      .send(answer.body);
  }

  /** What the socket answers for a request Node could not read, by Node's error code. */
  const socketRefusal = (code: string) => {
    if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return refusal(408, MSG.requestTimeout);
    if (code === 'HPE_HEADER_OVERFLOW') return refusal(431, MSG.requestTooLarge);
    return refusal(400, MSG.requestUnreadable);
  };

  /**
   * Fastify's `clientErrorHandler`: an HTTP answer written on the socket itself, as Fastify's own default does
   * (there is no request, so no reply and no hook), and the socket closed.
   */
  function clientErrorHandler(this: FastifyInstance, error: ConnectionError, socket: Socket) {
    // A connection the client reset has nobody left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    this.log.debug({ err: error }, 'a request the server could not read');
    if (socket.writable) {
      const { status, body } = socketRefusal(error.code);
      const text = JSON.stringify(body);
      const lines = Object.entries({
        ...headers,
        'cache-control': 'no-store',
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(text)),
        connection: 'close',
      }).map(([name, value]) => `${name}: ${value}`);
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('\r\n')}\r\n\r\n${text}`);
    }
    socket.destroy(error);
  }

  return { frameworkErrors, clientErrorHandler };
}
