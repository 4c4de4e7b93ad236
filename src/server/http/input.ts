import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MSG } from '../../shared/messages';
import { HttpError } from './errors';

/**
 * Text no field may hold: NUL (PostgreSQL refuses it in text and jsonb, so it would surface as a 500), the
 * other C0 control characters except tab, line feed and carriage return, and unpaired UTF-16 surrogates
 * (which cannot be encoded as UTF-8).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point here.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** JSON bodies deeper than this are refused: no form of the API nests more than a few levels. */
export const MAX_DEPTH = 16;

export const isCleanText = (text: string) => !CONTROL.test(text) && !LONE_SURROGATE.test(text);

const refuse = (message: string, param: string) =>
  new HttpError(400, MSG.validationFailed, [{ msg: message, param }]);

/** Refuses text that must never reach the database; `param` names the field in the wire contract's errors. */
export function assertCleanText(text: string, param: string) {
  if (!isCleanText(text)) throw refuse(MSG.invalidText, param);
}

/**
 * Checks every string of a parsed input, object keys included, and its depth. Iterative, so a hostile
 * nesting cannot exhaust the stack.
 */
export function assertCleanInput(input: unknown, root: string) {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: input, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      assertCleanText(value, path || root);
      continue;
    }
    // A raw body kept as bytes (the partner's signed callback) is checked once parsed, after its signature.
    if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) continue;
    if (depth >= MAX_DEPTH) throw refuse(MSG.tooDeep, path || root);
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      assertCleanText(key, childPath.replace(/[^\x20-\x7e]/g, '?'));
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
}

/**
 * One gate for every route of its scope (`/api/v1`): query, path parameters and parsed body are checked
 * before any handler runs, so no route can pass such text to the database. Multipart routes read their
 * parts in the handler and check them with `assertCleanText` (http/multipart.ts).
 */
export const inputGuard = fp(
  async (api: FastifyInstance) => {
    api.addHook('preValidation', async (request) => {
      assertCleanInput(request.params, 'params');
      assertCleanInput(request.query, 'query');
      assertCleanInput(request.body, 'body');
    });
  },
  { name: 'input-guard' },
);
