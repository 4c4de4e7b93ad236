import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { OpenAPIV3 } from 'openapi-types';
import { escapeHtml } from './html';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The readable page: every operation by tag, with its summary and access; the shapes are in the JSON. */
function docsPage(document: OpenAPIV3.Document): string {
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'other';
      const row =
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escapeHtml(path)}</code></td>` +
        `<td>${escapeHtml(op.summary)}</td><td>${escapeHtml(op.description)}</td></tr>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), row]);
    }
  }
  const sections = [...byTag]
    .map(
      ([tag, rows]) =>
        `<h2>${escapeHtml(tag)}</h2><table><thead><tr><th>method</th><th>path</th><th>what</th><th>access</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem">
<h1>${escapeHtml(document.info.title)}</h1>
<p>${escapeHtml(document.info.description)}</p>
<p>Every request and answer shape: <a href="/api/docs/json">/api/docs/json</a> (OpenAPI ${escapeHtml(document.openapi)}).</p>
${sections}
</body></html>`;
}

/**
 * The OpenAPI document of `/api/v1`, built by @fastify/swagger from the routes' zod schemas, served at
 * `/api/docs/json`, with a readable page listing the operations at `/api/docs` (plain HTML, no script, so it
 * lives under the panel's CSP). Public: it describes the API and holds no data.
 */
export const apiDocs = fp(
  async (api: FastifyInstance) => {
    await api.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Tierdesk API',
          description:
            'The API the Tierdesk panel calls. Success: `{ result, message? }`; failure: `{ message, errors?: [{ msg, param }] }`. ' +
            'Private calls send `X-auth-token: bearer <token>` (from account/login); POSTs echo the XSRF-TOKEN cookie in `X-XSRF-TOKEN`.',
          version: '1',
        },
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'header', name: 'X-auth-token' },
            xsrf: { type: 'apiKey', in: 'header', name: 'X-XSRF-TOKEN' },
          },
        },
      },
      transform: jsonSchemaTransform,
    });
    const hidden = { schema: { hide: true }, config: { access: 'public' as const } };
    api.get('/docs/json', hidden, async () => api.swagger());
    api.get('/docs', hidden, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send(docsPage(api.swagger() as OpenAPIV3.Document)),
    );
  },
  { name: 'api-docs' },
);
