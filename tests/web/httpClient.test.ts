import { HttpError } from 'react-admin';
import { MSG } from '../../src/shared/messages';
import { apiUrl, httpClient, normaliseError } from '../../src/web/providers/httpClient';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { jsonResponse } from './helpers';

const clearCookie = () => {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server that sets the cookie
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
};

afterEach(clearCookie);

describe('normaliseError (seed section 8)', () => {
  it('uses the first item of a non-empty errors array', () => {
    expect(
      normaliseError(400, {
        message: 'Validation failed',
        errors: [
          { msg: 'Name is required', param: 'name' },
          { msg: 'Email is required', param: 'email' },
        ],
      }),
    ).toBe('Error: Name is required');
  });

  it('falls back to the message when errors is missing or empty', () => {
    expect(normaliseError(403, { message: MSG.customerLoginRefused })).toBe(
      `Error: ${MSG.customerLoginRefused}`,
    );
    expect(normaliseError(409, { message: 'Duplicate', errors: [] })).toBe('Error: Duplicate');
  });

  it('uses status and status text when the body has neither', () => {
    expect(normaliseError(500, {}, 'Internal Server Error')).toBe(
      'Error Code: 500 Message: Internal Server Error',
    );
    expect(normaliseError(502, null, 'Bad Gateway')).toBe('Error Code: 502 Message: Bad Gateway');
  });
});

describe('httpClient', () => {
  it("fails with the seed's 'Internet connection error' (status 0), never the browser's 'Failed to fetch'", async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const error = await httpClient(apiUrl('report/userCounts')).catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error.message).toBe(MSG.internetError);
    expect(error.status).toBe(0);
  });

  it('lets an aborted request (a query no longer needed) fail as an abort, not as a connection error', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new DOMException('aborted', 'AbortError')));
    await expect(httpClient(apiUrl('report/userCounts'))).rejects.toMatchObject({ name: 'AbortError' });
  });

  it("reads a file answer as a Blob (a lead's picture), and a refused one as the normalised error", async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(new Response('PNG', { status: 200, headers: { 'Content-Type': 'image/png' } }))
      .mockResolvedValueOnce(jsonResponse(404, { message: 'Application not found' }));
    vi.stubGlobal('fetch', fetchMock);
    const { blob } = await httpClient(apiUrl('leads/l-1/picture'), { responseType: 'blob' });
    expect(await blob?.text()).toBe('PNG');
    await expect(httpClient(apiUrl('leads/l-2/picture'), { responseType: 'blob' })).rejects.toMatchObject({
      message: 'Error: Application not found',
      status: 404,
    });
  });

  it('sends the token header and JSON headers, and returns the parsed body', async () => {
    localStorage.setItem(SESSION_KEYS.authToken, 'tok-123');
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse(200, { result: { ok: 1 } }));
    vi.stubGlobal('fetch', fetchMock);
    const { json } = await httpClient<{ result: { ok: number } }>(apiUrl('report/userCounts'));
    expect(json.result.ok).toBe(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/v1/report/userCounts');
    const headers = new Headers(init.headers);
    expect(headers.get('X-auth-token')).toBe('bearer tok-123');
    expect(headers.get('Accept')).toBe('application/json');
    expect(headers.get('X-XSRF-TOKEN')).toBeNull();
    expect(init.credentials).toBe('same-origin');
  });

  it('sends no token header when no token is stored', async () => {
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse(200, { result: true }));
    vi.stubGlobal('fetch', fetchMock);
    await httpClient(apiUrl('account/login'), { method: 'POST', body: '{}' });
    const headers = new Headers((fetchMock.mock.calls[0] as [string, RequestInit])[1].headers);
    expect(headers.has('X-auth-token')).toBe(false);
    expect(headers.get('Content-Type')).toBe('application/json');
  });

  it('echoes the XSRF-TOKEN cookie only on state-changing requests to relative URLs', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server that sets the cookie
    document.cookie = 'XSRF-TOKEN=xsrf-abc; path=/';
    const fetchMock = vi.fn().mockImplementation(async () => jsonResponse(200, { result: true }));
    vi.stubGlobal('fetch', fetchMock);

    await httpClient(apiUrl('account/logout'), { method: 'POST' });
    await httpClient(apiUrl('account/fetch?_id=1'));
    await httpClient('https://partner.example.com/api', { method: 'POST', body: '{}' });
    await httpClient('//partner.example.com/api', { method: 'DELETE' });

    const xsrfOf = (index: number) =>
      new Headers((fetchMock.mock.calls[index] as [string, RequestInit])[1].headers).get('X-XSRF-TOKEN');
    expect(xsrfOf(0)).toBe('xsrf-abc');
    expect(xsrfOf(1)).toBeNull();
    expect(xsrfOf(2)).toBeNull();
    expect(xsrfOf(3)).toBeNull();
  });

  it('throws an HttpError with the normalised message, status and body', async () => {
    const body = {
      message: 'Validation failed',
      errors: [{ msg: 'State name is required!', param: 'name' }],
    };
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(400, body)));
    const error = await httpClient(apiUrl('state/create'), { method: 'POST', body: '{}' }).catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error.message).toBe('Error: State name is required!');
    expect(error.status).toBe(400);
    expect(error.body).toEqual(body);
  });
});

describe('httpClient XSRF priming', () => {
  it('retries a state-changing call once when the server refused it for a missing XSRF cookie it has now set', async () => {
    const fetchMock = vi
      .fn()
      .mockImplementationOnce(async () => {
        // The refusal carries Set-Cookie; the browser stores it.
        // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server that sets the cookie
        document.cookie = 'XSRF-TOKEN=fresh-1; path=/';
        return jsonResponse(403, { message: MSG.xsrfRefused });
      })
      .mockResolvedValueOnce(jsonResponse(200, { result: { token: 't', user: {} } }));
    vi.stubGlobal('fetch', fetchMock);
    await httpClient(apiUrl('account/login'), { method: 'POST', body: '{}' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const first = new Headers((fetchMock.mock.calls[0] as [string, RequestInit])[1].headers);
    const second = new Headers((fetchMock.mock.calls[1] as [string, RequestInit])[1].headers);
    expect(first.has('X-XSRF-TOKEN')).toBe(false);
    expect(second.get('X-XSRF-TOKEN')).toBe('fresh-1');
  });

  it('does not loop when the cookie did not change', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server that sets the cookie
    document.cookie = 'XSRF-TOKEN=same; path=/';
    const fetchMock = vi.fn().mockImplementation(async () => jsonResponse(403, { message: MSG.xsrfRefused }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(httpClient(apiUrl('account/logout'), { method: 'POST' })).rejects.toMatchObject({
      status: 403,
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
