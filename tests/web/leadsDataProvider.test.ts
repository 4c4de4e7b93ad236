import { createDataProvider, dataProvider } from '../../src/web/providers/dataProvider';
import type { HttpOptions, HttpResponse } from '../../src/web/providers/httpClient';
import { SESSION_KEYS } from '../../src/web/providers/session';
import { jsonResponse } from './helpers';

const LEAD_ID = '44444444-4444-4444-8444-444444444444';

/** A fake httpClient: records calls, answers from a table. */
const fakeHttp = (answer: (url: string) => { result?: unknown; message?: string }) => {
  const calls: { url: string; options: HttpOptions }[] = [];
  const http = vi.fn(async (url: string, options: HttpOptions = {}) => {
    calls.push({ url, options });
    const json = answer(url);
    return { status: 200, headers: new Headers(), body: JSON.stringify(json), json } as HttpResponse<never>;
  });
  return { http: http as unknown as Parameters<typeof createDataProvider>[0], calls };
};

afterEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server that sets the cookie
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

describe('dataProvider: leads', () => {
  it('lists leads with the type and status filters and the search text', async () => {
    const { http, calls } = fakeHttp(() => ({
      result: { leads: [{ _id: LEAD_ID, leadType: 'RETAILER', status: 'NEW' }], totalCounts: 1 },
    }));
    const { data, total } = await createDataProvider(http).getList('leads', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'createdAt', order: 'DESC' },
      filter: { q: 'kiran', leadType: 'RETAILER', status: 'NEW' },
    });
    expect(calls[0].url).toBe(
      '/api/v1/leads/fetch?page=1&limit=10&searchText=kiran&leadType=RETAILER&status=NEW',
    );
    expect(total).toBe(1);
    expect(data[0]).toMatchObject({ id: LEAD_ID, leadType: 'RETAILER' });
  });

  it('reads one lead by _id', async () => {
    const { http, calls } = fakeHttp(() => ({ result: { leads: [{ _id: LEAD_ID }], totalCounts: 1 } }));
    const { data } = await createDataProvider(http).getOne('leads', { id: LEAD_ID });
    expect(calls[0].url).toBe(`/api/v1/leads/fetch?_id=${LEAD_ID}`);
    expect(data.id).toBe(LEAD_ID);
  });

  it('sends the application as the FormData itself (multipart), and returns the thank-you message', async () => {
    const { http, calls } = fakeHttp(() => ({ result: { _id: LEAD_ID }, message: 'Thanks' }));
    const form = new FormData();
    form.append('leadType', 'RETAILER');
    await expect(createDataProvider(http).createLead(form)).resolves.toEqual({
      id: LEAD_ID,
      message: 'Thanks',
    });
    expect(calls[0]).toEqual({ url: '/api/v1/leads/create', options: { method: 'POST', body: form } });
  });

  it('approves and rejects through their own paths with the JSON bodies the server reads', async () => {
    const { http, calls } = fakeHttp((url) => ({
      result: {},
      message: url.includes('approve') ? 'Application approved' : 'Application rejected',
    }));
    const provider = createDataProvider(http);
    await expect(
      provider.approveLead(LEAD_ID, { masterDistributorId: 'md', distributorId: 'di' }),
    ).resolves.toEqual({ message: 'Application approved' });
    await expect(provider.rejectLead(LEAD_ID, 'Incomplete')).resolves.toEqual({
      message: 'Application rejected',
    });
    expect(calls.map((c) => [c.url, c.options.method, JSON.parse(String(c.options.body))])).toEqual([
      [`/api/v1/leads/approve/${LEAD_ID}`, 'POST', { masterDistributorId: 'md', distributorId: 'di' }],
      [`/api/v1/leads/reject/${LEAD_ID}`, 'POST', { reason: 'Incomplete' }],
    ]);
  });

  it('through the real httpClient, multipart keeps its own content type but carries the XSRF header', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server that sets the cookie
    document.cookie = 'XSRF-TOKEN=xsrf-1; path=/';
    const fetch = vi.fn().mockResolvedValue(jsonResponse(200, { result: { _id: LEAD_ID }, message: 'ok' }));
    vi.stubGlobal('fetch', fetch);
    await dataProvider.createLead(new FormData());
    const headers = new Headers((fetch.mock.calls[0] as [string, RequestInit])[1].headers);
    expect(headers.get('Content-Type')).toBeNull();
    expect(headers.get('X-XSRF-TOKEN')).toBe('xsrf-1');
  });

  it('fetches a lead file as a blob with the token; a refusal carries the normalised message', async () => {
    localStorage.setItem(SESSION_KEYS.authToken, 'tok-1');
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(new Response('png', { status: 200, headers: { 'Content-Type': 'image/png' } }))
      .mockResolvedValueOnce(jsonResponse(403, { message: 'You do not have permission to do this' }));
    vi.stubGlobal('fetch', fetch);
    const blob = await dataProvider.getLeadFile(LEAD_ID, 'picture');
    expect(await blob.text()).toBe('png');
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(`/api/v1/leads/${LEAD_ID}/picture`);
    expect(new Headers(init.headers).get('X-auth-token')).toBe('bearer tok-1');
    await expect(dataProvider.getLeadFile(LEAD_ID, 'document')).rejects.toMatchObject({
      message: 'Error: You do not have permission to do this',
      status: 403,
    });
  });
});
