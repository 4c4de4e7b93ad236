import { HttpError } from 'react-admin';
import { type HttpOptions, type HttpResponse, sendRequest } from './request';

export {
  API_BASE,
  apiUrl,
  type HttpOptions,
  type HttpResponse,
  isPasswordChangeRequired,
  normaliseError,
  readCookie,
} from './request';

const httpError = (message: string, status: number, body: unknown) => new HttpError(message, status, body);

/**
 * fetch wrapper for every call: token header, JSON headers, XSRF header for state-changing relative requests, and
 * failures as react-admin HttpErrors with the seed's normalised message (section 8). It shows nothing itself: the
 * screen that made the call notifies through react-admin (`useNotify`), so one failure is one message. A request
 * that got no answer (status 0) fails with the seed's 'Internet connection error'.
 */
export async function httpClient<T = unknown>(
  url: string,
  options: HttpOptions = {},
): Promise<HttpResponse<T>> {
  return sendRequest<T>(url, options, httpError);
}
