import { z } from 'zod';
import { APPROVAL_MSG } from '../constants/approvals';
import { USER_MSG } from '../constants/users';
import { UserStatus, UserType } from '../enums';
import { EMAIL_PATTERN, isValidAadhar, MOBILE_PATTERN, PAN_PATTERN } from '../identity';
import { MSG } from '../messages';
import { PASSWORD_PATTERN, USERNAME_MIN_LENGTH } from '../rules';
import { idField } from './locations';

// Zod-free (the sign-in page imports them without zod); re-exported so the server's imports stay.
export { USER_MSG, USER_SAVED_MSG } from '../constants/users';

/** Types account/fetch lists (admins are not listed). */
export const LISTED_TYPES = [
  UserType.CUSTOMER,
  UserType.MASTER_DISTRIBUTOR,
  UserType.DISTRIBUTOR,
  UserType.RETAILER,
  UserType.EMPLOYEE,
] as const;

/** Types account/create knows (the role table says who may create which: ADMIN only by an admin). */
export const CREATABLE_TYPES = [UserType.ADMIN, ...LISTED_TYPES] as const;

/** Seed section 9: fixed values stored for every new master distributor. */
export const MASTER_DISTRIBUTOR_DEFAULTS = {
  isMaster: true,
  distributorCode: 'abcA12',
  masterDistributorCommission: '10.5',
} as const;

const required = (max = 200) =>
  z
    .string({ error: MSG.required })
    .trim()
    .min(1, { error: MSG.required })
    .max(max, { error: `At most ${max} characters` });

const id = (message: string) => idField(MSG.required, message);

/** What the API shows of a stored Aadhar number. */
export const MASKED_AADHAR = /^X{8}\d{4}$/;

export const aadharField = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required })
  .regex(/^\d{12}$/, { error: MSG.aadharLength })
  .refine(isValidAadhar, { error: USER_MSG.invalidAadhar });

/** Fields every user shares (seed section 5), with the format checks Tierdesk adds. */
const baseUser = {
  name: required(100),
  email: required(200).pipe(z.string().regex(EMAIL_PATTERN, { error: MSG.invalidEmail })),
  mobile: required(20).pipe(z.string().regex(MOBILE_PATTERN, { error: MSG.invalidMobile })),
  userName: required(100).pipe(z.string().min(USERNAME_MIN_LENGTH, { error: MSG.minLength })),
  districtId: id(USER_MSG.invalidDistrict),
  tehsilId: id(USER_MSG.invalidTehsil),
};

const panField = required(10)
  .transform((v) => v.toUpperCase())
  .pipe(z.string().regex(PAN_PATTERN, { error: USER_MSG.invalidPan }));
/**
 * A tier user's PAN (issue 43: TDS is withheld at 20% without one): optional. Blank or null clears it; absent on an
 * update keeps the stored one.
 */
const optionalPan = z.preprocess(
  (v) => (v === '' || v === null || (typeof v === 'string' && v.trim() === '') ? null : v),
  panField.nullable().optional(),
);

const masterRef = z.object({ masterDistributorId: id(USER_MSG.invalidUserId) }, { error: MSG.required });
const distributorRef = z.object({ distributorId: id(USER_MSG.invalidUserId) }, { error: MSG.required });

export const masterDistributorSchema = z.object({
  ...baseUser,
  type: z.literal(UserType.MASTER_DISTRIBUTOR),
  panId: optionalPan,
});
export const distributorSchema = z.object({
  ...baseUser,
  type: z.literal(UserType.DISTRIBUTOR),
  distributor: masterRef,
  panId: optionalPan,
});
export const retailerSchema = z.object({
  ...baseUser,
  type: z.literal(UserType.RETAILER),
  distributor: masterRef,
  retailer: distributorRef,
  panId: optionalPan,
});

const optionalRetailer = z
  .union([z.uuid({ error: USER_MSG.invalidUserId }), z.literal(''), z.null()])
  .optional()
  .transform((v) => v || null);

export const customerCreateSchema = z.object({
  ...baseUser,
  type: z.literal(UserType.CUSTOMER),
  customer: z.object(
    { aadharId: aadharField, panId: panField, retailerId: optionalRetailer },
    { error: MSG.required },
  ),
});
/** On update the Aadhar number is replaced only when a new one is entered (the masked value means "keep"). */
export const customerUpdateSchema = z.object({
  ...baseUser,
  type: z.literal(UserType.CUSTOMER),
  customer: z.object(
    {
      // Blank or the masked number ('XXXXXXXX1234') keeps the stored one; anything else must be a valid number
      // (and gets that rule's message, not a generic one).
      aadharId: z.preprocess(
        (v) =>
          v === '' || v === null || (typeof v === 'string' && MASKED_AADHAR.test(v.trim())) ? undefined : v,
        aadharField.optional(),
      ),
      panId: panField,
      retailerId: optionalRetailer,
    },
    { error: MSG.required },
  ),
});

/** A match rule runs as soon as both fields are filled in, beside the other fields' issues. */
const bothGiven =
  (a: string, b: string) =>
  ({ value }: { value: unknown }) => {
    const v = value as Record<string, unknown> | null;
    return typeof v?.[a] === 'string' && v[a] !== '' && typeof v?.[b] === 'string' && v[b] !== '';
  };

/** An employee, whose first password the creating admin chooses (changed at its first sign-in). */
export const employeeCreateSchema = z
  .object({
    ...baseUser,
    type: z.literal(UserType.EMPLOYEE),
    password: required(200).pipe(z.string().regex(PASSWORD_PATTERN, { error: MSG.passwordPattern })),
    confirmPassword: required(200),
  })
  .refine((v) => v.password === v.confirmPassword, {
    error: MSG.passwordMismatch,
    path: ['confirmPassword'],
    when: bothGiven('password', 'confirmPassword'),
  });
export const employeeUpdateSchema = z.object({ ...baseUser, type: z.literal(UserType.EMPLOYEE) });

/** A password the body must not carry: an admin's first password is never its maker's to choose (issue 51). */
const noPassword = z.undefined({ error: APPROVAL_MSG.adminPasswordNotChosen }).optional();

/**
 * Another admin (issues 43 and 51): a command another admin approves. No password: the approving admin receives a
 * one-time password, which the new admin replaces at its first sign-in.
 */
export const adminCreateSchema = z.object({
  ...baseUser,
  type: z.literal(UserType.ADMIN),
  password: noPassword,
  confirmPassword: noPassword,
});
export type AdminCreateInput = z.infer<typeof adminCreateSchema>;

/**
 * `npm run admin -- create` (the server console): the first extra admin, when no second admin exists to approve
 * one. Email and mobile are optional there, and the admin belongs to no district.
 */
export const consoleAdminSchema = z.object({
  name: baseUser.name,
  userName: baseUser.userName,
  email: baseUser.email.optional(),
  mobile: baseUser.mobile.optional(),
});
export type ConsoleAdminInput = z.infer<typeof consoleAdminSchema>;

export const userCreateSchemas = {
  [UserType.ADMIN]: adminCreateSchema,
  [UserType.MASTER_DISTRIBUTOR]: masterDistributorSchema,
  [UserType.DISTRIBUTOR]: distributorSchema,
  [UserType.RETAILER]: retailerSchema,
  [UserType.CUSTOMER]: customerCreateSchema,
  [UserType.EMPLOYEE]: employeeCreateSchema,
} as const;
export const userUpdateSchemas = {
  [UserType.MASTER_DISTRIBUTOR]: masterDistributorSchema,
  [UserType.DISTRIBUTOR]: distributorSchema,
  [UserType.RETAILER]: retailerSchema,
  [UserType.CUSTOMER]: customerUpdateSchema,
  [UserType.EMPLOYEE]: employeeUpdateSchema,
} as const;

export const userTypeField = z.coerce
  .number({ error: USER_MSG.invalidType })
  .refine((t): t is (typeof CREATABLE_TYPES)[number] => (CREATABLE_TYPES as readonly number[]).includes(t), {
    error: USER_MSG.invalidType,
  });

/** account/fetch's `type`: a listed type. */
export const listedTypeField = z.coerce
  .number({ error: USER_MSG.invalidType })
  .refine((t): t is (typeof LISTED_TYPES)[number] => (LISTED_TYPES as readonly number[]).includes(t), {
    error: USER_MSG.invalidType,
  });

export const statusSchema = z.object({ status: z.enum(UserStatus, { error: USER_MSG.invalidStatus }) });
