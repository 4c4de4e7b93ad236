import { z } from 'zod';
import { GENDERS, IDENTITY_DOCUMENTS, LEAD_MSG, LEAD_TYPES, OWNERSHIP_TYPES } from '../constants/leads';
import {
  EMAIL_PATTERN,
  IFSC_PATTERN,
  isValidAadhar,
  MOBILE_PATTERN,
  PAN_PATTERN,
  PINCODE_PATTERN,
} from '../identity';
import { MSG } from '../messages';
import { idField } from './locations';

export type { LeadFileField, LeadStatus, LeadType } from '../constants/leads';
// Zod-free (the sign-in page imports them without zod); re-exported so the server's imports stay.
export {
  GENDERS,
  IDENTITY_DOCUMENTS,
  LEAD_FILES,
  LEAD_MAX_REQUEST_BYTES,
  LEAD_MSG,
  LEAD_STATUSES,
  LEAD_TYPES,
  OWNERSHIP_TYPES,
} from '../constants/leads';

/** The multipart parts of `leads/create` holding JSON text (seed section 3, Lead). */
export const LEAD_JSON_PARTS = [
  'applicantInfo',
  'businessInfo',
  'permanentAddress',
  'otherBusinessInfo',
  'bankInfo',
  'identityProof',
] as const;
export type LeadJsonPart = (typeof LEAD_JSON_PARTS)[number];

export const LEADS_PER_IP_PER_HOUR = 10;

const text = (max = 200) =>
  z
    .string({ error: MSG.required })
    .trim()
    .min(1, { error: MSG.required })
    .max(max, { error: `At most ${max} characters` });
const pattern = (regex: RegExp, message: string, max = 50) =>
  text(max).pipe(z.string().regex(regex, { error: message }));
/** An unanswered choice reads as required; a wrong one names the choices. */
const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, {
    error: (issue) =>
      issue.input === undefined || issue.input === null || issue.input === ''
        ? MSG.required
        : `Must be one of ${values.join(', ')}`,
  });
const location = (message: string) => idField(MSG.required, message);

export const applicantInfoSchema = z.object({
  name: text(100),
  education: text(100),
  gender: choice(GENDERS).default('Male'),
});
export const businessInfoSchema = z.object({
  establishmentName: text(150),
  outletAddress: text(300),
  businessLandmark: text(150),
  pincode: pattern(PINCODE_PATTERN, LEAD_MSG.invalidPincode),
  stateId: location('Invalid state id'),
  districtId: location('Invalid district id'),
  tehsilId: location('Invalid tehsil id'),
  mobile: pattern(MOBILE_PATTERN, MSG.invalidMobile),
  telephone: pattern(/^[0-9+\-\s]{6,15}$/, LEAD_MSG.invalidTelephone),
  email: pattern(EMAIL_PATTERN, MSG.invalidEmail, 200),
  ownershipType: choice(OWNERSHIP_TYPES),
  yearsInLocation: z
    .union([z.string(), z.number()], { error: MSG.required })
    .transform((v) => (typeof v === 'string' ? v.trim() : String(v)))
    .pipe(
      z
        .string()
        .min(1, { error: MSG.required })
        .regex(/^(100|[1-9]?\d)$/, { error: LEAD_MSG.invalidYears }),
    ),
});
export const permanentAddressSchema = z.object({
  residentialAddress: text(300),
  landmark: text(150),
  permanentAddressPincode: pattern(PINCODE_PATTERN, LEAD_MSG.invalidPincode),
  permanentStateId: location('Invalid state id'),
  permanentDistrictId: location('Invalid district id'),
  permanentTehsilId: location('Invalid tehsil id'),
  permanentMobile: pattern(MOBILE_PATTERN, MSG.invalidMobile),
  permanentTelephone: pattern(/^[0-9+\-\s]{6,15}$/, LEAD_MSG.invalidTelephone),
  permanentEmail: pattern(EMAIL_PATTERN, MSG.invalidEmail, 200),
});
export const otherBusinessInfoSchema = z.object({
  outletDescription: text(500),
  similarServiceDetails: text(500),
  panNumber: text(10)
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(PAN_PATTERN, { error: MSG.invalidValue })),
  aadharNumber: text(12)
    .pipe(z.string().regex(/^\d{12}$/, { error: MSG.aadharLength }))
    .refine(isValidAadhar, { error: LEAD_MSG.invalidAadhar }),
});
export const bankInfoSchema = z.object({
  bankName: text(100),
  accountNumber: pattern(/^\d{9,18}$/, LEAD_MSG.invalidAccount),
  ifscCode: text(11)
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(IFSC_PATTERN, { error: LEAD_MSG.invalidIfsc })),
});
/** An Aadhar or PAN given as proof must be a valid one; other documents are taken as typed. */
export const identityProofSchema = z
  .object({
    type: choice(IDENTITY_DOCUMENTS),
    documentNumber: text(50),
  })
  .transform((proof) =>
    proof.type === 'PAN' ? { ...proof, documentNumber: proof.documentNumber.toUpperCase() } : proof,
  )
  .superRefine((proof, ctx) => {
    const issue = (message: string) => ctx.addIssue({ code: 'custom', message, path: ['documentNumber'] });
    if (proof.type === 'AADHAR') {
      if (!/^\d{12}$/.test(proof.documentNumber)) issue(MSG.aadharLength);
      else if (!isValidAadhar(proof.documentNumber)) issue(LEAD_MSG.invalidAadhar);
    }
    if (proof.type === 'PAN' && !PAN_PATTERN.test(proof.documentNumber)) issue(MSG.invalidValue);
  });

export const leadPartSchemas = {
  applicantInfo: applicantInfoSchema,
  businessInfo: businessInfoSchema,
  permanentAddress: permanentAddressSchema,
  otherBusinessInfo: otherBusinessInfoSchema,
  bankInfo: bankInfoSchema,
  identityProof: identityProofSchema,
} as const;
export const leadTypeSchema = z.enum(LEAD_TYPES, { error: LEAD_MSG.invalidLeadType });

export type LeadSections = { [K in LeadJsonPart]: z.infer<(typeof leadPartSchemas)[K]> };

/** Approving needs the parent the new tier user hangs under. */
export const approveLeadSchema = z.object({
  masterDistributorId: idField(MSG.required, 'Invalid user id'),
  distributorId: idField(MSG.required, 'Invalid user id').optional(),
});
export const rejectLeadSchema = z.object({
  reason: z
    .string({ error: LEAD_MSG.reasonRequired })
    .trim()
    .min(1, { error: LEAD_MSG.reasonRequired })
    .max(500, { error: 'At most 500 characters' }),
});
