import type { FastifySchemaCompiler } from 'fastify';
import type { ZodType } from 'zod';
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
