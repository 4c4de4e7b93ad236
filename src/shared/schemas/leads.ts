import { z } from 'zod';
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

export const LEAD_TYPES = ['RETAILER', 'DISTRIBUTOR'] as const;
export type LeadType = (typeof LEAD_TYPES)[number];
export const LEAD_STATUSES = ['NEW', 'APPROVED', 'REJECTED'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export const GENDERS = ['Male', 'Female'] as const;
export const OWNERSHIP_TYPES = ['Rented', 'Owned'] as const;
export const IDENTITY_DOCUMENTS = ['AADHAR', 'PAN', 'VOTERID', 'DL', 'OTHER'] as const;

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

/** Picture and document limits; types are judged from the bytes, not the name. */
export const LEAD_FILES = {
  picture: {
    maxBytes: 2 * 1024 * 1024,
    mimes: ['image/jpeg', 'image/png', 'image/webp'],
    label: 'Picture',
    kinds: 'a JPEG, PNG or WebP image',
  },
  document: {
    maxBytes: 5 * 1024 * 1024,
    mimes: ['application/pdf', 'image/jpeg', 'image/png'],
    label: 'Document',
    kinds: 'a PDF, JPEG or PNG file',
  },
} as const;
export type LeadFileField = keyof typeof LEAD_FILES;
/** Whole-request cap, checked before parsing: both files at their limits plus the JSON parts. */
export const LEAD_MAX_REQUEST_BYTES = 8 * 1024 * 1024;
export const LEADS_PER_IP_PER_HOUR = 10;

export const LEAD_MSG = {
  allRequired: 'All fields are required to proceed for verification',
  documentRequired: 'At least one document is required',
  photoRequired: 'Photo is required to proceed for verification',
  sameAsAboveRefused: 'First fill all the required fields of business information section!',
  thankYou:
    'Thank you for submiting your details. We have received your application, we will review and get back to you soon!',
  missingPart: (part: string) => `${part} is required`,
  badJson: (part: string) => `${part} must be valid JSON`,
  fileType: (file: LeadFileField) => `${LEAD_FILES[file].label} must be ${LEAD_FILES[file].kinds}`,
  fileTooLarge: (file: LeadFileField) =>
    `${LEAD_FILES[file].label} must be at most ${LEAD_FILES[file].maxBytes / 1024 / 1024} MB`,
  requestTooLarge: `The application is too large: at most ${LEAD_MAX_REQUEST_BYTES / 1024 / 1024} MB in all`,
  notMultipart: 'The application must be sent as multipart/form-data',
  unexpectedPart: (part: string) => `Unexpected part: ${part}`,
  rateLimited: 'Too many applications from this network. Please try again in an hour.',
  invalidLeadType: 'Lead type must be RETAILER or DISTRIBUTOR',
  invalidPincode: 'Pincode must be 6 digits',
  invalidTelephone: 'Invalid telephone number',
  invalidIfsc: 'Invalid IFSC code',
  invalidAccount: 'Account number must be 9 to 18 digits',
  invalidYears: 'Years in location must be a whole number from 0 to 100',
  invalidAadhar: 'Invalid Aadhar number',
  leadNotFound: 'Application not found',
  alreadyDecided: 'This application has already been decided',
  reasonRequired: 'A reason is required to reject an application',
  approved: 'Application approved',
  rejected: 'Application rejected',
} as const;

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
