import { loginSchema } from '../../shared/schemas/account';
import { schemaValidator } from '../forms/schemaValidator';

/** Seed section 5: userName required, min 4; password required (the server's login schema). */
export const validateLogin = schemaValidator(loginSchema);
