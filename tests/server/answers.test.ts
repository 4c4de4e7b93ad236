// How answers are written: writers compiled from each route's zod schema (http/schemas.ts), and the check the
// server tests run on every answer against zod's own writing.
import Fastify, { type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerErrorHandler } from '../../src/server/http/errors';
import { compiledWriter, writtenAsIs, zodSerializerCompiler } from '../../src/server/http/schemas';
import { MSG } from '../../src/shared/messages';
import { envelope } from '../../src/shared/wire';
import { makeTestContext, type TestContext } from './helpers';

/** A bare app answering `answer` under `schema`, with the server's writer and error handler. */
async function appAnswering(schema: z.ZodType, answer: unknown, verify: boolean) {
  const app = Fastify();
  app.setSerializerCompiler(zodSerializerCompiler({ verify }));
  registerErrorHandler(app);
  app.get('/answer', { schema: { response: { 200: schema } } }, async () => answer);
  await app.ready();
  const res = await app.inject({ method: 'GET', url: '/answer' });
  await app.close();
  return res;
}

const person = envelope(z.strictObject({ name: z.string(), mobile: z.string().optional() }));

describe('answers written by compiled writers', () => {
  it('write only the fields the schema declares: an undeclared field never leaves', async () => {
    const res = await appAnswering(
      person,
      { result: { name: 'Asha', passwordHash: '$argon2id$secret', aadharCipher: 'c1' } },
      false,
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"result":{"name":"Asha"}}');
  });

  it('refuse an answer missing a required field with the generic 500, never half an answer', async () => {
    const res = await appAnswering(person, { result: { mobile: '9876543210' } }, false);
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: MSG.internalError });
  });

  it('write what zod writes where zod rewrites a value (trim, lower case): those schemas go through zod', async () => {
    const rewriting = envelope(z.strictObject({ name: z.string().trim().toLowerCase() }));
    expect(writtenAsIs(rewriting)).toBe(false);
    const res = await appAnswering(rewriting, { result: { name: '  ASHA ' } }, false);
    expect(res.body).toBe('{"result":{"name":"asha"}}');
  });

  describe('checked against zod in the server tests (verify)', () => {
    it('refuses an answer zod refuses: an undeclared field of a strict object, a wrong type', async () => {
      for (const answer of [
        { result: { name: 'Asha', passwordHash: 'x' } },
        { result: { name: 42 } },
        { result: { name: 'Asha', mobile: null } },
      ]) {
        const res = await appAnswering(person, answer, true);
        expect(res.statusCode, JSON.stringify(answer)).toBe(500);
        expect(res.json()).toEqual({ message: MSG.internalError });
      }
      // Without the check the compiled writer coerces the number, as fast-json-stringify does.
      expect((await appAnswering(person, { result: { name: 42 } }, false)).body).toBe(
        '{"result":{"name":"42"}}',
      );
    });

    it('refuses an answer the compiled writer writes differently from zod (a union of objects)', async () => {
      // zod takes the first option and drops `b`; the JSON Schema's first option refuses the extra field, so the
      // compiled writer takes the second and writes it.
      const ambiguous = envelope(
        z.union([z.object({ a: z.string() }), z.object({ a: z.string(), b: z.string() })]),
      );
      const answer = { result: { a: 'x', b: 'y' } };
      expect((await appAnswering(ambiguous, answer, false)).body).toBe('{"result":{"a":"x","b":"y"}}');
      const res = await appAnswering(ambiguous, answer, true);
      expect(res.statusCode).toBe(500);
    });

    it('passes answers both write alike', async () => {
      const res = await appAnswering(person, { result: { name: 'Asha', mobile: '9876543210' } }, true);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('{"result":{"name":"Asha","mobile":"9876543210"}}');
    });
  });
});

describe("every route's answers", () => {
  let ctx: TestContext;
  const routes: RouteOptions[] = [];
  beforeAll(async () => {
    ctx = await makeTestContext({ demo: false, onRoute: (route) => routes.push(route) });
  });
  afterAll(() => ctx.close());

  it('are written by a writer compiled from their schema: no route falls back to zod', () => {
    const schemas = routes.flatMap((route) =>
      Object.entries((route.schema?.response ?? {}) as Record<string, z.ZodType>).map(
        ([status, schema]) => [`${route.method} ${route.url} ${status}`, schema] as const,
      ),
    );
    expect(schemas.length).toBeGreaterThan(40);
    expect(schemas.filter(([, schema]) => !compiledWriter(schema)).map(([name]) => name)).toEqual([]);
  });
});
