import { loginSchema } from '../../shared/schemas/account';
import { type FieldError, schemaValidator } from '../forms/schemaValidator';
import type { SignInValues } from './form';

const validateLogin = schemaValidator(loginSchema);

/**
 * The sign-in form's one validator: the server's login schema (seed section 5: the user name required, at least 4
 * and at most 100 characters; the password required; the second step's code once asked), each field's first issue
 * with the schema's own message as a catalogue entry. It lives in the `validation` chunk with zod (vite.config.ts),
 * which the form loads on the first key typed, not in the sign-in page's first script.
 */
export const validateSignIn = (values: SignInValues) =>
  validateLogin(values) as Partial<Record<keyof SignInValues, FieldError>>;
