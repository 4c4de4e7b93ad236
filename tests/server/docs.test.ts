import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestContext, type TestContext } from './helpers';

let ctx: TestContext;
const routes: RouteOptions[] = [];

beforeAll(async () => {
  ctx = await makeTestContext({ demo: false, onRoute: (route) => routes.push(route) });
});
afterAll(() => ctx.close());

type Operation = {
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<
    string,
    { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }
  >;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

const documentOf = async () => {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  return res.json() as Document;
};

describe('the OpenAPI document', () => {
  it('has every registered /api/v1 route, with its method', async () => {
    const doc = await documentOf();
    const api = routes
      .filter((r) => r.url.startsWith('/api/v1/'))
      .flatMap((r) =>
        [r.method]
          .flat()
          .filter((m) => m !== 'HEAD')
          .map((m) => ({ method: m, url: r.url })),
      );
    expect(api.length).toBeGreaterThan(35);
    const missing = api.filter(
      ({ method, url }) => !doc.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()],
    );
    expect(missing).toEqual([]);
    for (const path of ['/api/v1/audit/fetch', '/api/v1/bought_products/callback', '/api/v1/wallet/payout'])
      expect(Object.keys(doc.paths)).toContain(path);
    // The sandbox partner is not part of the API.
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/v1/'))).toEqual([]);
  });

  it('shows the shapes from the shared schemas: parameters, bodies, answers and who may call', async () => {
    const doc = await documentOf();
    const audit = doc.paths['/api/v1/audit/fetch'].get;
    expect(audit.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['page', 'limit', 'userId', 'entity', 'action', 'from', 'to']),
    );
    expect(audit.description).toBe('ADMIN');
    const answer = audit.responses['200'].content?.['application/json'].schema;
    expect(Object.keys(answer?.properties ?? {})).toEqual(expect.arrayContaining(['result', 'message']));
    const payout = doc.paths['/api/v1/wallet/payout'].post;
    expect(Object.keys(payout.requestBody?.content['application/json'].schema.properties ?? {})).toEqual([
      'userId',
      'amount',
      'reference',
    ]);
    expect(Object.keys(doc.paths['/api/v1/leads/create'].post.requestBody?.content ?? {})).toEqual([
      'multipart/form-data',
    ]);
    expect(doc.paths['/api/v1/state/update/{id}'].post.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'path' })]),
    );
  });

  it('is public, and /api/docs lists the operations on a page without scripts', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toContain('/api/v1/audit/fetch');
    expect(res.body).toContain('<a href="/api/docs/json">');
    expect(res.body).not.toContain('<script');
  });
});
