import { jsonResponse } from './helpers';

export interface Request {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Headers;
  /** The request's AbortSignal, when it was given one. */
  signal?: AbortSignal;
}

/** An answer, or one that comes later (a slow partner); undefined = not mine. */
type Handler = (request: Request) => Response | Promise<Response> | undefined;

/** As fetch does: an aborted request rejects with an AbortError, whether or not its answer has come. */
const abortable = (answer: Promise<Response>, signal: AbortSignal | undefined) =>
  signal
    ? new Promise<Response>((resolve, reject) => {
        const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
        if (signal.aborted) abort();
        signal.addEventListener('abort', abort, { once: true });
        answer.then(resolve, reject);
      })
    : answer;

/**
 * The server as the panel sees it, for the real dataProvider over a stubbed fetch: each handler answers the calls
 * it knows (undefined = not mine); anything else is a 404 that names the call. `requests` records every call.
 */
export const stubServer = (...handlers: Handler[]) => {
  const requests: Request[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://x');
    const request: Request = {
      method: (init.method ?? 'GET').toUpperCase(),
      path: url.pathname.replace('/api/v1/', ''),
      query: url.searchParams,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: new Headers(init.headers),
      signal: init.signal ?? undefined,
    };
    requests.push(request);
    for (const handler of handlers) {
      const response = handler(request);
      if (response) return abortable(Promise.resolve(response), request.signal);
    }
    return jsonResponse(404, { message: `not stubbed: ${request.method} ${request.path}` });
  });
  vi.stubGlobal('fetch', fetch);
  return {
    fetch,
    requests,
    /** The state-changing calls, in order, as `METHOD path` with their bodies. */
    posts: () => requests.filter((r) => r.method === 'POST').map((r) => [`POST ${r.path}`, r.body]),
  };
};

/** `GET <path>` answering `{ result: { [key]: rows, totalCounts } }`, rows chosen from the query. */
export const listOf =
  (path: string, key: string, rows: (query: URLSearchParams) => unknown[]): Handler =>
  (request) => {
    if (request.method !== 'GET' || request.path !== path) return undefined;
    const items = rows(request.query);
    return jsonResponse(200, { result: { [key]: items, totalCounts: items.length } });
  };

export const answer =
  (method: string, path: string, respond: (request: Request) => Response | Promise<Response>): Handler =>
  (request) =>
    request.method === method && request.path === path ? respond(request) : undefined;
