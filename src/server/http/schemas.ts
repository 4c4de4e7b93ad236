import fastJson from 'fast-json-stringify';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { type ZodType, z } from 'zod';
import { zodToHttpError } from './errors';

const DOCUMENTED_ONLY = new WeakSet<object>();

/**
 * A route part declared for the OpenAPI document only: the route reads and checks it itself, because its
 * refusal order says so (the partner callback verifies the signature over the raw bytes before parsing; a
 * multipart application answers its own "all fields are required"; `account/create` checks the caller's right to
 * the user type before the type's fields).
 */
export function documentedOnly<S extends ZodType>(schema: S): S {
  DOCUMENTED_ONLY.add(schema);
  return schema;
}

/**
 * Validates each declared part (params, body, querystring) with its shared zod schema, as `parseInput` does:
 * an absent body is an empty object (so its fields answer "This field is required"), and a refusal keeps the
 * wire contract's shape `400 { message: 'Invalid data!', errors: [{ msg, param }] }` with the schema's own
 * messages. The parsed value (coerced, trimmed, defaulted) replaces the request's.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<ZodType> =
  ({ schema }) =>
  (data) => {
    if (DOCUMENTED_ONLY.has(schema)) return { value: data };
    const parsed = schema.safeParse(data ?? {});
    return parsed.success ? { value: parsed.data } : { error: zodToHttpError(parsed.error) };
  };

/** The parts of a zod schema this walk reads (zod 4's definitions). */
interface SchemaDef {
  type: string;
  checks?: { _zod: { def: { check: string } } }[];
  shape?: Record<string, ZodType>;
  catchall?: ZodType;
  element?: ZodType;
  options?: ZodType[];
  innerType?: ZodType;
  valueType?: ZodType;
}
const defOf = (schema: ZodType) => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;

/**
 * Whether zod writes a value of this schema as it is: plain data (objects, arrays, unions, scalars) and no check
 * that rewrites the value (`trim()`, `toLowerCase()` are overwrites), so a writer compiled from its JSON Schema
 * writes what zod would. Transforms, defaults, catches and lazy schemas are written through zod.
 */
export function writtenAsIs(schema: ZodType): boolean {
  const def = defOf(schema);
  if (def.checks?.some((check) => check._zod.def.check === 'overwrite')) return false;
  const all = (parts: (ZodType | undefined)[]) =>
    parts.every((part) => part === undefined || writtenAsIs(part));
  switch (def.type) {
    case 'object':
      return all([...Object.values(def.shape ?? {}), def.catchall]);
    case 'array':
      return all([def.element]);
    case 'union':
      return all(def.options ?? []);
    case 'optional':
    case 'nullable':
    case 'readonly':
      return all([def.innerType]);
    case 'record':
      return all([def.valueType]);
    case 'string':
    case 'number':
    case 'boolean':
    case 'literal':
    case 'enum':
    case 'null':
    case 'unknown':
    case 'never':
      return true;
    default:
      return false;
  }
}

/** fast-json-stringify's writer for a schema written as it is and expressible in JSON Schema; else undefined. */
export function compiledWriter(schema: ZodType): ((data: unknown) => string) | undefined {
  if (!writtenAsIs(schema)) return undefined;
  try {
    const jsonSchema = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw', target: 'draft-7' });
    return fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
  } catch {
    return undefined;
  }
}

/**
 * Writes each route's answers with fast-json-stringify, compiled once from the route's zod schema (its JSON
 * Schema, output side), instead of zod's encode followed by JSON.stringify. Only the fields the schema declares are written, as with zod (a user's password hash
 * never leaves, whatever a route hands over). Unlike zod it does not judge the answer's types (a string where a
 * number is declared is written as one), so `verify` (the server tests) also encodes every answer with zod and
 * refuses one that zod refuses or that the two write differently: the whole suite checks the compiled writers
 * against the schemas. A schema whose values zod rewrites, or that JSON Schema cannot express, is written
 * through zod.
 */
export const zodSerializerCompiler =
  (opts: { verify: boolean }): FastifySerializerCompiler<ZodType> =>
  ({ schema, method, url }) => {
    const throughZod = (data: unknown) => {
      const encoded = schema.safeEncode(data);
      if (!encoded.success)
        throw new Error(`${method} ${url}: the answer does not match its schema`, { cause: encoded.error });
      return JSON.stringify(encoded.data);
    };
    const compiled = compiledWriter(schema);
    if (!compiled) return throughZod;
    if (!opts.verify) return compiled;
    return (data) => {
      const expected = throughZod(data);
      const written = compiled(data);
      if (written !== expected)
        throw new Error(`${method} ${url}: the compiled writer gave ${written}, zod ${expected}`);
      return written;
    };
  };

declare module 'fastify' {
  interface FastifyInstance {
    /** The server tests' check of every answer against its schema (zodSerializerCompiler). */
    verifyAnswers: boolean;
  }
}
