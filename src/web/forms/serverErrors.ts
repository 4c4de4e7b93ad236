import { HttpError } from 'react-admin';
import { type FieldError, fieldError } from './schemaValidator';

type Errors = { [field: string]: FieldError | Errors };

/**
 * The server's field refusals (`errors: [{ msg, param }]`, e.g. param 'customer.panId') as form errors, so the
 * message shows on the field it is about as well as in the toast. `fieldOf` maps a param to the form's field
 * ('' when the form has no such field).
 */
export function serverFieldErrors(
  error: unknown,
  fieldOf: (param: string) => string = (param) => param,
): Errors | undefined {
  const body = error instanceof HttpError ? (error.body as { errors?: unknown } | null) : null;
  if (!body || !Array.isArray(body.errors)) return undefined;
  const errors: Errors = {};
  for (const item of body.errors as { msg?: unknown; param?: unknown }[]) {
    if (typeof item?.msg !== 'string' || typeof item.param !== 'string') continue;
    const field = fieldOf(item.param);
    if (!field) continue;
    const parts = field.split('.');
    let node = errors;
    for (const part of parts.slice(0, -1)) {
      node[part] ??= {};
      node = node[part] as Errors;
    }
    node[parts[parts.length - 1]] ??= fieldError(item.msg);
  }
  return Object.keys(errors).length ? errors : undefined;
}
