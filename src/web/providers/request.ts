/**
 * The panel's one fetch wrapper, free of react-admin so the sign-in entry (src/web/entry.ts) sends its login with
 * the same headers, XSRF retry and error texts as the panel (httpClient.ts wraps it with react-admin's HttpError).
 */
import { MSG } from '../../shared/messages';
import type { ErrorBody } from '../../shared/wire';
import { reportAnswered } from './connectivity';
import { getToken } from './session';

/** Base path of every call (seed section 7); same origin, vite dev proxies /api to the server. */
export const API_BASE = '/api/v1';

export const apiUrl = (path: string): string => `${API_BASE}/${path.replace(/^\/+/, '')}`;

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface HttpOptions extends Omit<RequestInit, 'headers'> {
  headers?: Record<string, string>;
  /** `blob`: the answer is a file (a lead's picture or document), read as a Blob into `blob`. */
  responseType?: 'json' | 'blob';
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: string;
  json: T;
  /** The file, when `responseType: 'blob'` was asked for. */
  blob?: Blob;
}

const isRelativeUrl = (url: string): boolean => !/^([a-z][a-z0-9+.-]*:)?\/\//i.test(url);

export const readCookie = (name: string): string | null => {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [rawKey, ...rest] = part.trim().split('=');
    if (rawKey === name) return decodeURIComponent(rest.join('='));
  }
  return null;
};

/**
 * Seed section 8: an error array -> 'Error: ' + first msg; else a message -> 'Error: ' + message;
 * else 'Error Code: {status} Message: {statusText}'.
 */
export function normaliseError(status: number, body: unknown, statusText = ''): string {
  const data = (body && typeof body === 'object' ? body : {}) as Partial<ErrorBody>;
  if (Array.isArray(data.errors) && data.errors.length > 0) {
    const first = data.errors[0] as { msg?: unknown } | string;
    const msg = typeof first === 'string' ? first : String(first?.msg ?? '');
    return `Error: ${msg}`;
  }
  if (typeof data.message === 'string' && data.message) return `Error: ${data.message}`;
  const text = statusText || (typeof body === 'string' && body ? body : 'Unknown error');
  return `Error Code: ${status} Message: ${text}`;
}

/** Whether the failure is the server's "change your initial password first" refusal. */
export const isPasswordChangeRequired = (status: number, body: unknown): boolean =>
  status === 403 &&
  !!body &&
  typeof body === 'object' &&
  (body as { message?: unknown }).message === MSG.passwordChangeRequired;

const parse = (text: string): unknown => {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** The error a failed request throws: react-admin's HttpError in the panel, a plain one in the sign-in entry. */
export type FailureOf = (message: string, status: number, body: unknown) => Error;

/** An Error with the answer's status and body, as react-admin's HttpError has them. */
export const plainFailure: FailureOf = (message, status, body) =>
  Object.assign(new Error(message), { status, body });

/**
 * Token header, JSON headers, XSRF header for state-changing relative requests, and failures thrown through
 * `failure` with the seed's normalised message (section 8); status 0 is the seed's 'Internet connection error'.
 */
export async function sendRequest<T>(
  url: string,
  options: HttpOptions,
  failure: FailureOf,
  retried = false,
): Promise<HttpResponse<T>> {
  const { responseType = 'json', headers: extraHeaders, ...init } = options;
  const method = (init.method ?? 'GET').toUpperCase();
  const headers = new Headers({ Accept: responseType === 'blob' ? '*/*' : 'application/json' });
  if (init.body !== undefined && !(init.body instanceof FormData))
    headers.set('Content-Type', 'application/json');
  const token = getToken();
  if (token) headers.set('X-auth-token', `bearer ${token}`);
  const sendsXsrf = STATE_CHANGING.has(method) && isRelativeUrl(url);
  const xsrf = sendsXsrf ? readCookie('XSRF-TOKEN') : null;
  if (xsrf) headers.set('X-XSRF-TOKEN', xsrf);
  for (const [key, value] of Object.entries(extraHeaders ?? {})) headers.set(key, value);

  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin', ...init, method, headers });
  } catch (error) {
    // An aborted request (a query react-query no longer needs) is not a connection failure.
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    // Status 0: the request never got an answer (the offline banner, layout/OfflineBanner).
    reportAnswered(false);
    throw failure(MSG.internetError, 0, null);
  }
  reportAnswered(true);

  if (responseType === 'blob' && response.ok) {
    const blob = await response.blob();
    return { status: response.status, headers: response.headers, body: '', json: null as T, blob };
  }

  const text = await response.text();
  const json = parse(text);

  // The server issues the XSRF cookie on any response that lacks it, the refusal included: when the
  // first state-changing call of a visit had no cookie yet (e.g. vite dev serves the page), retry once.
  if (
    sendsXsrf &&
    !retried &&
    response.status === 403 &&
    (json as Partial<ErrorBody> | null)?.message === MSG.xsrfRefused &&
    readCookie('XSRF-TOKEN') !== xsrf
  ) {
    return sendRequest<T>(url, options, failure, true);
  }

  if (response.status < 200 || response.status >= 300) {
    if (response.status === 0) throw failure(MSG.internetError, 0, json);
    throw failure(normaliseError(response.status, json, response.statusText), response.status, json);
  }

  return { status: response.status, headers: response.headers, body: text, json: json as T };
}
