// How answers are written: from each route's zod schema, by fastify-type-provider-zod's serializer (app.ts), which
// checks the answer against the schema and writes what zod encodes. One schema and one writer per route.
import Fastify, { type RouteOptions } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerErrorHandler } from '../../src/server/http/errors';
import { MSG } from '../../src/shared/messages';
import { envelope } from '../../src/shared/wire';
import { ADMIN, login, makeTestContext, type TestContext } from './helpers';

/** A bare app answering `answer` under `schema`, with the server's writer and error handler. */
async function appAnswering(schema: z.ZodType, answer: unknown) {
  const app = Fastify();
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  app.get('/answer', { schema: { response: { 200: schema } } }, async () => answer);
  await app.ready();
  const res = await app.inject({ method: 'GET', url: '/answer' });
  await app.close();
  return res;
}

const person = envelope(z.object({ name: z.string(), mobile: z.string().optional() }));
const strictPerson = envelope(z.strictObject({ name: z.string(), mobile: z.string().optional() }));

describe('answers written from their schema', () => {
  it('write only the fields the schema declares: an undeclared field never leaves', async () => {
    const res = await appAnswering(person, {
      result: { name: 'Asha', passwordHash: '$argon2id$secret', aadharCipher: 'c1' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"result":{"name":"Asha"}}');
  });

  it('refuse, with the generic 500 and never half an answer, one that does not match its schema', async () => {
    for (const [schema, answer] of [
      // A required field missing.
      [person, { result: { mobile: '9876543210' } }],
      // A wrong type: never coerced.
      [person, { result: { name: 42 } }],
      [person, { result: { name: 'Asha', mobile: null } }],
      // An undeclared field where the schema is strict.
      [strictPerson, { result: { name: 'Asha', passwordHash: 'x' } }],
    ] as const) {
      const res = await appAnswering(schema, answer);
      expect(res.statusCode, JSON.stringify(answer)).toBe(500);
      expect(res.json()).toEqual({ message: MSG.internalError });
    }
  });

  it('write what zod writes: its rewrites (trim, lower case) and the first option of a union that fits', async () => {
    const rewriting = envelope(z.strictObject({ name: z.string().trim().toLowerCase() }));
    expect((await appAnswering(rewriting, { result: { name: '  ASHA ' } })).body).toBe(
      '{"result":{"name":"asha"}}',
    );
    const union = envelope(
      z.union([z.object({ a: z.string() }), z.object({ a: z.string(), b: z.string() })]),
    );
    expect((await appAnswering(union, { result: { a: 'x', b: 'y' } })).body).toBe('{"result":{"a":"x"}}');
  });

  it('pass an answer that matches, as it is', async () => {
    const res = await appAnswering(strictPerson, { result: { name: 'Asha', mobile: '9876543210' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"result":{"name":"Asha","mobile":"9876543210"}}');
  });
});

describe("every route's answers", () => {
  let ctx: TestContext;
  const routes: RouteOptions[] = [];
  beforeAll(async () => {
    ctx = await makeTestContext({ onRoute: (route) => routes.push(route) });
  });
  afterAll(() => ctx.close());

  it('read back with their documented schema: every list and report an admin opens without parameters', async () => {
    const { token } = await login(ctx.app, ADMIN.userName, ADMIN.password);
    const reads = routes.flatMap((route) => {
      const schema = (route.schema?.response as Record<string, z.ZodType> | undefined)?.[200];
      const plain = route.method === 'GET' && route.url.startsWith('/api/v1/') && !route.url.includes(':');
      return plain && schema ? [{ url: route.url, schema }] : [];
    });
    expect(reads.length).toBeGreaterThan(15);
    const problems: string[] = [];
    let answered = 0;
    for (const { url, schema } of reads) {
      const res = await ctx.app.inject({
        method: 'GET',
        url,
        headers: { 'x-auth-token': `bearer ${token}` },
      });
      if (res.statusCode !== 200) continue;
      answered++;
      const read = schema.safeParse(res.json());
      if (!read.success) problems.push(`${url}: ${read.error.message.slice(0, 300)}`);
    }
    expect(problems).toEqual([]);
    expect(answered).toBeGreaterThan(15);
  });
});
