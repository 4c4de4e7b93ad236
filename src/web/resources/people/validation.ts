import type { RaRecord, ValidateForm } from 'react-admin';
import { TIER_TYPES, UserType } from '../../../shared/enums';
import { userCreateSchemas, userUpdateSchemas } from '../../../shared/schemas/users';
import { schemaValidator } from '../../forms/schemaValidator';
import { staffTypeOf, userToBody } from '../../providers/users';

type Values = Record<string, unknown>;
type Action = 'create' | 'update';

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
  if (TIER_TYPES.includes(type)) values.panId = record?.panId ?? '';
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
        // Employee, or another admin when an admin chooses so (issue 43).
        values.role = String(UserType.EMPLOYEE);
      }
      break;
  }
  return values;
}

/** The form field of a body path: 'customer.aadharId' -> 'aadharId' (the form is flat; the body nests). */
export const userFieldOf = (path: readonly PropertyKey[] | string) => {
  const parts = typeof path === 'string' ? path.split('.') : path.map(String);
  return parts[parts.length - 1] ?? '';
};

/**
 * Seed section 5 for the user modals, checked by the zod schemas the server parses with (src/shared): the form values
 * become the request body (userToBody), and each issue comes back on its form field with the server's message.
 */
export const userValidator = (type: UserType, action: Action): ValidateForm => {
  const validatorOf = (as: UserType) =>
    schemaValidator((action === 'create' ? userCreateSchemas : userUpdateSchemas)[as as 2], {
      toInput: (values) => userToBody(as, values, action),
      fieldOf: userFieldOf,
    });
  if (type !== UserType.EMPLOYEE || action !== 'create') return validatorOf(type);
  // The Employees form may ask for another admin instead (`role`): the admin's rules, without passwords.
  const employee = validatorOf(UserType.EMPLOYEE);
  const admin = validatorOf(UserType.ADMIN);
  return (values) => (staffTypeOf(values, 'create') === UserType.ADMIN ? admin : employee)(values);
};
