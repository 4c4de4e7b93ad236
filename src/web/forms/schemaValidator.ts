import type { ValidateForm } from 'react-admin';
import type { z } from 'zod';
import { sharedMessage } from '../i18n/sharedMessages';

type Values = Record<string, unknown>;
/** A field message as react-admin shows it: a catalogue key, with arguments when the text has some. */
export type FieldError = string | { message: string; args: Record<string, unknown> };
type Errors = { [field: string]: FieldError | Errors };

export interface SchemaValidatorOptions {
  /** Form values -> what the schema parses: the request body, when the form holds it flatter (users). */
  toInput?: (values: Values) => unknown;
  /** The form field an issue belongs to (default: its path, 'urlParams.data'); '' drops the issue. */
  fieldOf?: (path: readonly PropertyKey[]) => string;
}

/** The message of a shared text as a catalogue entry (translated by react-admin), or the text itself. */
export const fieldError = (text: string): FieldError => {
  const known = sharedMessage(text);
  if (!known) return text;
  return known.args ? { message: known.key, args: { _: text, ...known.args } } : known.key;
};

const setPath = (errors: Errors, path: string, error: FieldError) => {
  const parts = path.split('.');
  let node = errors;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next === 'object' && next && !('message' in next)) node = next as Errors;
    else {
      const created: Errors = {};
      node[part] = created;
      node = created;
    }
  }
  const leaf = parts[parts.length - 1];
  if (node[leaf] === undefined) node[leaf] = error;
};

/**
 * One validation source (STYLE.md): a react-admin form-level `validate` that parses the values with the zod schema
 * the server parses the request with (src/shared), and reports each field's first issue with the server's own
 * message. The panel and the server cannot disagree on a rule or its wording.
 */
export function schemaValidator(
  schema: z.ZodType,
  {
    toInput = (values) => values,
    fieldOf = (path) => path.map(String).join('.'),
  }: SchemaValidatorOptions = {},
): ValidateForm {
  return (values) => {
    const parsed = schema.safeParse(toInput(values as Values));
    const errors: Errors = {};
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const field = fieldOf(issue.path);
        if (field) setPath(errors, field, fieldError(issue.message));
      }
    return errors;
  };
}

/**
 * The fields a schema refuses when left blank, as form field names: what the forms mark as required (react-admin's
 * asterisk), so the mark follows the same rule as the message.
 */
export function requiredFields(validate: ValidateForm, blank: Values): Set<string> {
  const errors = validate(blank) as Errors;
  const fields = new Set<string>();
  const walk = (node: Errors, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (typeof value === 'object' && value && !('message' in value)) walk(value as Errors, path);
      else fields.add(path);
    }
  };
  walk(errors, '');
  return fields;
}

/**
 * react-admin's required-field mark (the asterisk after the label) for an input whose rule lives in the form's
 * schema. It checks nothing itself: the form's `validate` does.
 */
export const requiredMark = Object.assign(() => undefined, { isRequired: true });
