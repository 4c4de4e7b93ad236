import type { RaRecord } from 'react-admin';
import { UserType } from '../../../shared/enums';
import { MSG } from '../../../shared/messages';
import { aadharField, userCreateSchemas, userUpdateSchemas } from '../../../shared/schemas/users';
import { userToBody } from '../../providers/users';

type Values = Record<string, unknown>;
type Action = 'create' | 'update';

/** What the API shows of a stored Aadhar number ('XXXXXXXX1234'); sent back unchanged it keeps the number. */
const MASKED_AADHAR = /^X{8}\d{4}$/;

const blank = (value: unknown) => value === undefined || value === null || String(value).trim() === '';

/**
 * The form's initial values for a user type (seed sections 2 and 5): the shared fields, then the parents of the
 * type, the customer's identity numbers, and the employee's passwords when creating. Only what the form edits.
 */
export function userFormValues(type: UserType, record?: RaRecord): Values {
  const values: Values = {
    name: record?.name ?? '',
    email: record?.email ?? '',
    mobile: record?.mobile ?? '',
    userName: record?.userName ?? '',
    districtId: record?.districtId ?? null,
    tehsilId: record?.tehsilId ?? null,
  };
  switch (type) {
    case UserType.DISTRIBUTOR:
      values.masterDistributorId = record?.masterDistributorId ?? null;
      break;
    case UserType.RETAILER:
      values.masterDistributorId = record?.masterDistributorId ?? null;
      values.distributorId = record?.distributorId ?? null;
      break;
    case UserType.CUSTOMER:
      values.aadharId = record?.aadharId ?? '';
      values.panId = record?.panId ?? '';
      values.retailerId = record?.retailerId ?? null;
      break;
    case UserType.EMPLOYEE:
      if (!record) {
        values.password = '';
        values.confirmPassword = '';
      }
      break;
  }
  return values;
}

/**
 * Seed section 5 for the user modals, checked by the same zod schemas the server parses with (src/shared): the
 * form values become the request body (userToBody), the schema's issues come back keyed by form field (the last
 * path segment: 'customer.aadharId' -> 'aadharId'), first message per field. On top, the panel's own wording
 * for two cases: a password mismatch reads MSG.mustMatch, and on update a blank or still-masked Aadhar number
 * means "keep it" while a new one must be a valid number.
 */
export function validateUser(type: UserType, values: Values, action: Action): Record<string, string> {
  const body = userToBody(type, values, action);
  const schema = (action === 'create' ? userCreateSchemas : userUpdateSchemas)[
    type as keyof typeof userCreateSchemas
  ];
  const errors: Record<string, string> = {};
  const parsed = schema.safeParse(body);
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = String(issue.path[issue.path.length - 1] ?? '');
    if (field && !errors[field]) errors[field] = issue.message;
  }

  if (type === UserType.CUSTOMER && action === 'update') {
    delete errors.aadharId;
    const aadhar = String(values.aadharId ?? '').replace(/\s+/g, '');
    if (aadhar && !MASKED_AADHAR.test(aadhar)) {
      const check = aadharField.safeParse(aadhar);
      if (!check.success) errors.aadharId = check.error.issues[0].message;
    }
  }

  if (type === UserType.EMPLOYEE && action === 'create') {
    if (blank(values.confirmPassword)) errors.confirmPassword = MSG.required;
    else if (values.confirmPassword !== values.password) errors.confirmPassword = MSG.mustMatch;
    else delete errors.confirmPassword;
  }
  return errors;
}
