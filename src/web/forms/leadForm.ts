import type { ValidateForm } from 'react-admin';
import { z } from 'zod';
import {
  LEAD_FILES,
  LEAD_JSON_PARTS,
  LEAD_MSG,
  type LeadFileField,
  type LeadJsonPart,
  type LeadType,
  leadPartSchemas,
} from '../../shared/schemas/leads';
import { fieldError, schemaValidator } from './schemaValidator';

/**
 * The onboarding form's model: the six sections and the two files as react-hook-form values, validated by the
 * shared zod schemas (src/shared/schemas/leads.ts) and file rules (LEAD_FILES), so the panel shows the server's own
 * field messages. The public onboarding page fills it and the leads review reads its field order and file sizes,
 * so it lives with the forms rather than in either.
 */
export type LeadSectionValues = Record<string, string | null>;
export type LeadSections = Record<LeadJsonPart, LeadSectionValues>;
export type LeadFiles = Record<LeadFileField, File | null>;
export type LeadFormValues = LeadSections & LeadFiles;

/** Blank form: every field empty, gender Male (seed section 2), lookups unset, no files. */
export const emptyLeadForm = (): LeadFormValues => ({
  applicantInfo: { name: '', education: '', gender: 'Male' },
  businessInfo: {
    establishmentName: '',
    outletAddress: '',
    businessLandmark: '',
    pincode: '',
    stateId: null,
    districtId: null,
    tehsilId: null,
    mobile: '',
    telephone: '',
    email: '',
    ownershipType: null,
    yearsInLocation: '',
  },
  permanentAddress: {
    residentialAddress: '',
    landmark: '',
    permanentAddressPincode: '',
    permanentStateId: null,
    permanentDistrictId: null,
    permanentTehsilId: null,
    permanentMobile: '',
    permanentTelephone: '',
    permanentEmail: '',
  },
  otherBusinessInfo: { outletDescription: '', similarServiceDetails: '', panNumber: '', aadharNumber: '' },
  bankInfo: { bankName: '', accountNumber: '', ifscCode: '' },
  identityProof: { type: null, documentNumber: '' },
  picture: null,
  document: null,
});

/** One section's rules (the business section decides 'Same as above'). */
export const sectionValidator = (part: LeadJsonPart): ValidateForm => schemaValidator(leadPartSchemas[part]);

const sectionsValidator = schemaValidator(z.object(leadPartSchemas));

/** What is missing or wrong with a chosen file (null when it is fine). */
const MISSING: Record<LeadFileField, string> = {
  picture: LEAD_MSG.photoRequired,
  document: LEAD_MSG.documentRequired,
};

/**
 * react-admin's form-level `validate`: `{ businessInfo: { pincode: <message> }, picture: <message> }`, every field
 * and both files required (seed section 5).
 */
export const validateLeadForm: ValidateForm = (values) => {
  const errors = sectionsValidator(values) as Record<string, unknown>;
  for (const field of Object.keys(LEAD_FILES) as LeadFileField[]) {
    const file = values[field] as File | null | undefined;
    const problem = file ? fileProblem(field, file) : MISSING[field];
    if (problem) errors[field] = fieldError(problem);
  }
  return errors;
};

/**
 * The seed's toast for an invalid submit (section 5): 'All fields are required to proceed for verification' while a
 * field is wrong, then 'At least one document is required', then 'Photo is required to proceed for verification'.
 */
export const invalidSubmitMessage = (values: Partial<LeadFormValues>): string | undefined => {
  const errors = validateLeadForm(values) as Record<string, unknown>;
  const fields = Object.keys(errors).filter((key) => !(key in LEAD_FILES));
  if (fields.length) return LEAD_MSG.allRequired;
  if (errors.document) return LEAD_MSG.documentRequired;
  if (errors.picture) return LEAD_MSG.photoRequired;
  return undefined;
};

/**
 * 'Same as above' (seed sections 2 and 4): each business field and the permanent-address field it fills.
 * Address, landmark, pincode, state, district, tehsil, mobile, telephone and email.
 */
export const SAME_AS_ABOVE: readonly (readonly [business: string, permanent: string])[] = [
  ['outletAddress', 'residentialAddress'],
  ['businessLandmark', 'landmark'],
  ['pincode', 'permanentAddressPincode'],
  ['stateId', 'permanentStateId'],
  ['districtId', 'permanentDistrictId'],
  ['tehsilId', 'permanentTehsilId'],
  ['mobile', 'permanentMobile'],
  ['telephone', 'permanentTelephone'],
  ['email', 'permanentEmail'],
];

/** The six JSON parts as sent: each section as the shared schema reads it (trimmed, PAN and IFSC upper case). */
export function toLeadParts(values: LeadSections): Record<LeadJsonPart, unknown> {
  return Object.fromEntries(
    LEAD_JSON_PARTS.map((part) => {
      const parsed = leadPartSchemas[part].safeParse(values[part]);
      return [part, parsed.success ? parsed.data : values[part]];
    }),
  ) as Record<LeadJsonPart, unknown>;
}

/** The multipart body of `leads/create` (seed section 3, Lead). */
export function toLeadFormData(values: LeadFormValues, leadType: LeadType): FormData {
  const form = new FormData();
  const parts = toLeadParts(values);
  for (const part of LEAD_JSON_PARTS) form.append(part, JSON.stringify(parts[part]));
  form.append('leadType', leadType);
  if (values.picture) form.append('picture', values.picture, values.picture.name);
  if (values.document) form.append('document', values.document, values.document.name);
  return form;
}

/** Extensions offered by the file dialog, per accepted type (react-dropzone's `accept`). */
const EXTENSIONS: Record<string, string[]> = {
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'image/webp': ['.webp'],
  'application/pdf': ['.pdf'],
};

export const dropzoneAccept = (field: LeadFileField): Record<string, string[]> =>
  Object.fromEntries(LEAD_FILES[field].mimes.map((mime) => [mime, EXTENSIONS[mime] ?? []]));

/** The client-side file check mirroring the server's (LEAD_FILES): type, then size. Null when fine. */
export function fileProblem(field: LeadFileField, file: { type: string; size: number }): string | null {
  const rule = LEAD_FILES[field];
  if (!(rule.mimes as readonly string[]).includes(file.type)) return LEAD_MSG.fileType(field);
  if (file.size > rule.maxBytes) return LEAD_MSG.fileTooLarge(field);
  if (file.size === 0) return field === 'picture' ? LEAD_MSG.photoRequired : LEAD_MSG.documentRequired;
  return null;
}

/** '512 B', '1.5 KB', '2.0 MB' */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
